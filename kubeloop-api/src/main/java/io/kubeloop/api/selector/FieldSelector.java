package io.kubeloop.api.selector;

import io.kubeloop.api.ObjectAccess;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A field selector: a conjunction of {@code field=value} / {@code field!=value} terms,
 * apimachinery's {@code fields.Selector}.
 *
 * {@snippet :
 * FieldSelector s = FieldSelector.parse("metadata.namespace=prod,status.phase!=Running");
 * s.matches(field -> switch (field) { case "status.phase" -> "Pending"; default -> "prod"; }); // true
 * }
 *
 * <p>Grammar: terms separated by unescaped commas; each term is a field name, then the first
 * {@code !=}, {@code ==} or {@code =}, then the value, in which {@code \,} {@code \=} and
 * {@code \\} stand for {@code , = \}. Empty terms are skipped; no whitespace is trimmed. {@code ==}
 * means {@code =}. A field that an object lacks reads as the empty string (so {@code f!=x} matches
 * it). The empty string is {@link #everything()}.
 *
 * <p>Requirements are kept sorted, so {@link #format()} is canonical and
 * {@code parse(s.format()).equals(s)}. Immutable and thread-safe.
 */
public final class FieldSelector {

    private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    /** Sorted by {@link FieldRequirement#ORDER}. */
    private final List<FieldRequirement> requirements;

    private FieldSelector(List<FieldRequirement> requirements) {
        this.requirements = requirements;
    }

    /** The selector that matches every object. */
    public static FieldSelector everything() {
        return EVERYTHING;
    }

    /** The conjunction of the given requirements. */
    public static FieldSelector of(FieldRequirement... requirements) {
        return of(List.of(requirements));
    }

    /** The conjunction of the given requirements. */
    public static FieldSelector of(Collection<FieldRequirement> requirements) {
        if (requirements.isEmpty()) {
            return EVERYTHING;
        }
        List<FieldRequirement> sorted = new ArrayList<>(requirements);
        sorted.sort(FieldRequirement.ORDER);
        return new FieldSelector(List.copyOf(sorted));
    }

    /** {@code field=value}, e.g. {@code FieldSelector.equal("metadata.name", "web")}. */
    public static FieldSelector equal(String field, String value) {
        return of(FieldRequirement.equal(field, value));
    }

    /**
     * Parses selector text.
     *
     * @throws SelectorParseException when a term has no operator, an empty or invalid field name,
     *     an invalid escape or an unescaped {@code =} in its value, naming the position
     */
    public static FieldSelector parse(String text) {
        Objects.requireNonNull(text, "text");
        List<FieldRequirement> out = new ArrayList<>();
        int start = 0;
        boolean inEscape = false;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || (!inEscape && text.charAt(i) == ',')) {
                if (i > start) {
                    out.add(parseTerm(text, start, i));
                }
                start = i + 1;
                inEscape = false;
            } else if (inEscape) {
                inEscape = false;
            } else if (text.charAt(i) == '\\') {
                inEscape = true;
            }
        }
        return of(out);
    }

    private static FieldRequirement parseTerm(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            int valueStart;
            FieldRequirement.Operator op;
            if (c == '!' && i + 1 < end && text.charAt(i + 1) == '=') {
                op = FieldRequirement.Operator.NOT_EQUALS;
                valueStart = i + 2;
            } else if (c == '=') {
                op = FieldRequirement.Operator.EQUALS;
                valueStart = i + 1 < end && text.charAt(i + 1) == '=' ? i + 2 : i + 1;
            } else {
                continue;
            }
            String field = text.substring(start, i);
            String fieldProblem = FieldRequirement.checkField(field);
            if (fieldProblem != null) {
                throw new SelectorParseException("invalid field selector: " + fieldProblem, text, start);
            }
            return new FieldRequirement(field, op, unescape(text, valueStart, end));
        }
        throw new SelectorParseException(
                "invalid field selector: can't understand '" + text.substring(start, end)
                        + "', expected field=value, field==value or field!=value",
                text,
                start);
    }

    /** apimachinery's {@code fields.UnescapeValue}, over {@code text[start, end)}. */
    private static String unescape(String text, int start, int end) {
        StringBuilder sb = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                if (i + 1 >= end) {
                    throw new SelectorParseException("invalid field selector: invalid escape sequence: \\", text, i);
                }
                char n = text.charAt(++i);
                if (n != '\\' && n != ',' && n != '=') {
                    throw new SelectorParseException(
                            "invalid field selector: invalid escape sequence: \\" + n, text, i - 1);
                }
                sb.append(n);
            } else if (c == '=' || c == ',') {
                throw new SelectorParseException(
                        "invalid field selector: unescaped character in value: '" + c + "'", text, i);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * True when every term holds; {@code fieldValue} gives a field's value by name, null or
     * {@code ""} when the object has no such field.
     */
    public boolean matches(Function<String, String> fieldValue) {
        for (int i = 0; i < requirements.size(); i++) {
            FieldRequirement r = requirements.get(i);
            if (!r.matches(fieldValue.apply(r.field()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Matches the two fields every resource supports, {@code metadata.name} and
     * {@code metadata.namespace} ({@code ""} for cluster-scoped objects), of any object
     * {@link ObjectAccess} reads.
     *
     * @throws IllegalArgumentException when the selector names another field ("field label not
     *     supported", as the API server answers for custom resources)
     */
    public boolean matchesMetadata(Object object) {
        return matches(field -> switch (field) {
            case "metadata.name" -> ObjectAccess.name(object);
            case "metadata.namespace" -> ObjectAccess.namespace(object);
            default -> throw new IllegalArgumentException("field label not supported: " + field);
        });
    }

    /** The value {@code field} must equal for a match, when an {@code =} term pins it. */
    public Optional<String> requiresExactMatch(String field) {
        for (FieldRequirement r : requirements) {
            if (r.operator() == FieldRequirement.Operator.EQUALS && r.field().equals(field)) {
                return Optional.of(r.value());
            }
        }
        return Optional.empty();
    }

    /** The terms, sorted by field, operator and value. */
    public List<FieldRequirement> requirements() {
        return requirements;
    }

    /** True for the empty selector. */
    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /** The canonical text: sorted terms joined by {@code ,}, values escaped. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        for (FieldRequirement r : requirements) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(r.format());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return format();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSelector other && requirements.equals(other.requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode();
    }
}
