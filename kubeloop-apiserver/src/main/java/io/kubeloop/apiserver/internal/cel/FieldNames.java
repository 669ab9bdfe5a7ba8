package io.kubeloop.apiserver.internal.cel;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How object field names appear in CEL, as Kubernetes escapes them: a CEL reserved word becomes
 * {@code __word__} ({@code namespace} is {@code __namespace__}); in other names {@code __} becomes
 * {@code __underscores__}, {@code .} {@code __dot__}, {@code -} {@code __dash__} and {@code /}
 * {@code __slash__}. A name that does not match {@code [_a-zA-Z][_a-zA-Z0-9.\-/]*} cannot be reached
 * from CEL at all. Stateless.
 */
final class FieldNames {

    private static final Set<String> RESERVED = Set.of(
            "true",
            "false",
            "null",
            "in",
            "as",
            "break",
            "const",
            "continue",
            "else",
            "for",
            "function",
            "if",
            "import",
            "let",
            "loop",
            "package",
            "namespace",
            "return",
            "var",
            "void",
            "while");
    private static final Pattern ESCAPABLE = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9./-]*");

    private FieldNames() {}

    /** The CEL name of field {@code name}, empty when CEL cannot name it. */
    static Optional<String> escape(String name) {
        if (RESERVED.contains(name)) {
            return Optional.of("__" + name + "__");
        }
        if (!ESCAPABLE.matcher(name).matches()) {
            return Optional.empty();
        }
        return Optional.of(name.replace("__", "__underscores__")
                .replace(".", "__dot__")
                .replace("-", "__dash__")
                .replace("/", "__slash__"));
    }
}
