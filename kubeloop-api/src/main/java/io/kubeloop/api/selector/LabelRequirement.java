package io.kubeloop.api.selector;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One term of a {@link LabelSelector}: a key, an {@link LabelOperator operator} and its values —
 * apimachinery's {@code labels.Requirement}.
 *
 * <p>The compact constructor validates as apimachinery's {@code NewRequirement}: a valid label key
 * (optional DNS-subdomain prefix and {@code /}, a name of at most 63 alphanumerics, {@code -_.}
 * inside), valid label values, one value for {@code =, ==, !=, >, <}, at least one for
 * {@code in, notin}, none for exists/does-not-exist, and an integer for {@code >, <}. Values are
 * kept as a sorted set, so requirements that differ only in value order or duplicates are equal.
 * Invalid input throws {@link IllegalArgumentException}. Immutable and thread-safe.
 *
 * @param key the label key
 * @param operator the operator
 * @param values the values, sorted and without duplicates
 */
public record LabelRequirement(String key, LabelOperator operator, List<String> values) {

    /** Orders by key, then by canonical text: the order {@link LabelSelector#format()} prints. */
    static final Comparator<LabelRequirement> ORDER =
            Comparator.comparing(LabelRequirement::key).thenComparing(LabelRequirement::format);

    public LabelRequirement {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operator, "operator");
        Objects.requireNonNull(values, "values");
        String keyProblem = LabelValidation.checkKey(key);
        if (keyProblem != null) {
            throw new IllegalArgumentException("invalid label key \"" + key + "\": " + keyProblem);
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String v : values) {
            String valueProblem = LabelValidation.checkValue(Objects.requireNonNull(v, "value"));
            if (valueProblem != null) {
                throw new IllegalArgumentException(
                        "invalid label value \"" + v + "\" for key \"" + key + "\": " + valueProblem);
            }
            sorted.add(v);
        }
        values = List.copyOf(sorted);
        String countProblem = switch (operator) {
            case IN, NOT_IN -> values.isEmpty() ? "for 'in', 'notin' operators, values set can't be empty" : null;
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS ->
                values.size() != 1 ? "exact-match compatibility requires one single value" : null;
            case EXISTS, DOES_NOT_EXIST ->
                values.isEmpty() ? null : "values set must be empty for exists and does not exist";
            case GREATER_THAN, LESS_THAN ->
                values.size() != 1 || parseLong(values.getFirst()) == null
                        ? "for 'Gt', 'Lt' operators, exactly one integer value is required"
                        : null;
        };
        if (countProblem != null) {
            throw new IllegalArgumentException(
                    "invalid requirement on \"" + key + "\" " + values + ": " + countProblem);
        }
    }

    /** {@code key=value}. */
    public static LabelRequirement equal(String key, String value) {
        return new LabelRequirement(key, LabelOperator.EQUALS, List.of(value));
    }

    /** {@code key!=value}: also true when the label is absent. */
    public static LabelRequirement notEqual(String key, String value) {
        return new LabelRequirement(key, LabelOperator.NOT_EQUALS, List.of(value));
    }

    /** {@code key in (values)}. */
    public static LabelRequirement in(String key, String... values) {
        return new LabelRequirement(key, LabelOperator.IN, Arrays.asList(values));
    }

    /** {@code key in (values)}. */
    public static LabelRequirement in(String key, Collection<String> values) {
        return new LabelRequirement(key, LabelOperator.IN, List.copyOf(values));
    }

    /** {@code key notin (values)}: also true when the label is absent. */
    public static LabelRequirement notIn(String key, String... values) {
        return new LabelRequirement(key, LabelOperator.NOT_IN, Arrays.asList(values));
    }

    /** {@code key notin (values)}: also true when the label is absent. */
    public static LabelRequirement notIn(String key, Collection<String> values) {
        return new LabelRequirement(key, LabelOperator.NOT_IN, List.copyOf(values));
    }

    /** {@code key}: the label is present, with any value. */
    public static LabelRequirement exists(String key) {
        return new LabelRequirement(key, LabelOperator.EXISTS, List.of());
    }

    /** {@code !key}: the label is absent. */
    public static LabelRequirement doesNotExist(String key) {
        return new LabelRequirement(key, LabelOperator.DOES_NOT_EXIST, List.of());
    }

    /** {@code key>n}. */
    public static LabelRequirement greaterThan(String key, long n) {
        return new LabelRequirement(key, LabelOperator.GREATER_THAN, List.of(Long.toString(n)));
    }

    /** {@code key<n}. */
    public static LabelRequirement lessThan(String key, long n) {
        return new LabelRequirement(key, LabelOperator.LESS_THAN, List.of(Long.toString(n)));
    }

    /**
     * True when {@code labels} satisfy this requirement. {@code !=} and {@code notin} are true for
     * an absent key; {@code >} and {@code <} are false for an absent or non-integer label.
     */
    public boolean matches(Map<String, String> labels) {
        String actual = labels.get(key);
        return switch (operator) {
            case EQUALS, DOUBLE_EQUALS, IN -> actual != null && values.contains(actual);
            case NOT_EQUALS, NOT_IN -> actual == null || !values.contains(actual);
            case EXISTS -> actual != null || labels.containsKey(key);
            case DOES_NOT_EXIST -> actual == null && !labels.containsKey(key);
            case GREATER_THAN, LESS_THAN -> {
                Long have = actual == null ? null : parseLong(actual);
                if (have == null) {
                    yield false;
                }
                long want = Long.parseLong(values.getFirst());
                yield operator == LabelOperator.GREATER_THAN ? have > want : have < want;
            }
        };
    }

    /** The canonical text, as apimachinery's {@code Requirement.String()}: {@code tier in (a,b)}, {@code !k}. */
    public String format() {
        StringBuilder sb = new StringBuilder(key.length() + 8 + 8 * values.size());
        if (operator == LabelOperator.DOES_NOT_EXIST) {
            sb.append('!');
        }
        sb.append(key);
        switch (operator) {
            case EXISTS, DOES_NOT_EXIST -> {
                return sb.toString();
            }
            case IN, NOT_IN ->
                sb.append(operator.symbol())
                        .append('(')
                        .append(String.join(",", values))
                        .append(')');
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN ->
                sb.append(operator.symbol()).append(values.getFirst());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return format();
    }

    /** Go's {@code strconv.ParseInt(s, 10, 64)}: an optional sign and decimal digits; null if not. */
    static Long parseLong(String s) {
        if (s.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
