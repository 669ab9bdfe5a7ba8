package io.kubeloop.api.yaml;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.dataformat.yaml.util.StringQuotingChecker;

/**
 * Decides which strings {@link KubeYaml} writes quoted: every string that a YAML 1.1 reader (Go's
 * {@code sigs.k8s.io/yaml} and {@code yaml.v2}, PyYAML, Ansible, SnakeYAML 1.x) or a YAML 1.2 reader (core
 * or JSON schema) would resolve as anything but a string when written plain, besides what Jackson's default
 * quotes for the syntax itself (indicators, {@code ": "}, {@code " #"}, blanks at either end).
 *
 * <p>The plain scalars quoted for their type, matched against the union of both versions' implicit types
 * (generously: a quoted string reads the same in every reader, so quoting too much costs only looks):
 *
 * <ul>
 *   <li>booleans: {@code y n yes no true false on off}, in any case (YAML 1.1 lists three casings of each);
 *   <li>null: the empty string, {@code ~}, {@code null} in any case;
 *   <li>integers and floats: decimal with {@code _} separators ({@code 1_000}), leading zeros (YAML 1.1
 *       octal {@code 0755}), {@code 0b}, {@code 0o} and {@code 0x} prefixes, base 60 ({@code 1:20},
 *       {@code 190:20:30.15}), a dot anywhere among the digits ({@code .5}, {@code 1.}, {@code 1.2.3}, which
 *       YAML 1.1's float pattern admits), exponents ({@code 1e3}), {@code .inf} and {@code .nan} in any case
 *       and with a sign;
 *   <li>timestamps: a date {@code YYYY-M-D}, alone or followed by {@code T}, {@code t} or blanks and a time;
 *   <li>the merge key {@code <<} and YAML 1.1's value key {@code =}.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class PortableQuoting extends StringQuotingChecker.Default {

    private static final long serialVersionUID = 1L;

    private static final Set<String> WORDS =
            Set.of("y", "n", "yes", "no", "true", "false", "on", "off", "null", "~", "<<", "=");

    /** Decimal, octal, binary, hexadecimal and base-60 numbers, floats with a dot or an exponent. */
    private static final Pattern NUMBER = Pattern.compile(
            "[-+]?(?:"
                    + "0[bBoOxX][0-9a-fA-F_]*" // 0b101, 0o17, 0x1F (YAML 1.1 and 1.2)
                    + "|[0-9][0-9_]*(?::[0-9_]+)+(?:\\.[0-9_]*)?" // base 60: 1:20, 190:20:30.15 (YAML 1.1)
                    + "|(?:[0-9][0-9_]*(?:\\.[0-9_.]*)?|\\.[0-9_.]*)(?:[eE][-+]?[0-9]+)?" // 1_000, 0755, 1.5, .5, 1e3
                    + "|\\.(?:inf|nan))", // .inf, -.Inf, .NaN
            Pattern.CASE_INSENSITIVE);

    /** YAML 1.1's timestamp: a date, alone or followed by a time. */
    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+).*)?");

    static final PortableQuoting INSTANCE = new PortableQuoting();

    private PortableQuoting() {}

    @Override
    public boolean needToQuoteName(String name) {
        return resolvesAsNonString(name) || breaksLinesInYaml11(name) || super.needToQuoteName(name);
    }

    @Override
    public boolean needToQuoteValue(String value) {
        return resolvesAsNonString(value) || breaksLinesInYaml11(value) || super.needToQuoteValue(value);
    }

    /**
     * Whether {@code s} holds NEL (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR (U+2029): line breaks to
     * a YAML 1.1 reader, ordinary characters to YAML 1.2 (whose writer leaves them as they are), so a plain key
     * or value holding one reads differently, or not at all, in YAML 1.1.
     */
    static boolean breaksLinesInYaml11(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code plain}, written as a plain scalar, would be read as a boolean, null, number, timestamp,
     * merge or value key by a YAML 1.1 or a YAML 1.2 reader.
     */
    static boolean resolvesAsNonString(String plain) {
        return plain.isEmpty()
                || WORDS.contains(plain.toLowerCase(Locale.ROOT))
                || NUMBER.matcher(plain).matches()
                || TIMESTAMP.matcher(plain).matches();
    }
}
