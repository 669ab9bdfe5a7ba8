package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.errors.Status;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Validates JSON against a {@link StructuralSchema} as kube-openapi's {@code SchemaValidator} does
 * for custom resources, with errors converted as apiextensions-apiserver's
 * {@code kubeOpenAPIResultToFieldErrors} converts them. Validators per node run in kube-openapi's
 * order: type, allOf/anyOf/oneOf/not, string, format, number, array, enum, object. Stateless.
 */
final class SchemaValidator {

    private static final String IN = " in body";

    private final List<Status.Cause> causes = new ArrayList<>();

    private SchemaValidator() {}

    static List<Status.Cause> validate(StructuralSchema s, JsonNode data) {
        SchemaValidator v = new SchemaValidator();
        v.node(s, "", data);
        return List.copyOf(v.causes);
    }

    /** The field path apiextensions reports: the kube-openapi name without its leading dot, or {@code <nil>} at the root. */
    private static String field(String name) {
        if (name.isEmpty() || name.equals(".")) {
            return "<nil>";
        }
        return name.startsWith(".") ? name.substring(1) : name;
    }

    private void node(StructuralSchema s, String path, JsonNode data) {
        if (data == null || data.isNull() || data.isMissingNode()) {
            List<String> types = types(s);
            if (!types.isEmpty() && !s.nullable()) {
                typeError(path, String.join(",", types), "null");
            }
            enumCheck(s, path, data);
            return;
        }
        typeCheck(s, path, data);
        junctors(s, path, data);
        if (data.isString()) {
            stringChecks(s, path, data.stringValue(), data);
            Formats.check(s.format(), data.stringValue())
                    .ifPresent(fmt -> causes.add(FieldErrors.typeInvalid(
                            field(path),
                            data.stringValue(),
                            path + IN + " must be of type " + fmt + ": " + GoFormat.quote(data.stringValue()))));
        }
        if (data.isNumber()) {
            numberChecks(s, path, data);
        }
        if (data.isArray()) {
            arrayChecks(s, path, data);
        }
        enumCheck(s, path, data);
        if (data.isObject()) {
            objectChecks(s, path, data);
        }
    }

    private static List<String> types(StructuralSchema s) {
        if (s.intOrString()) {
            return List.of("integer", "string");
        }
        return s.type().isEmpty() ? List.of() : List.of(s.type());
    }

    static String jsonType(JsonNode data) {
        if (data.isBoolean()) {
            return "boolean";
        } else if (data.isString()) {
            return "string";
        } else if (data.isIntegralNumber()) {
            return "integer";
        } else if (data.isNumber()) {
            return "number";
        } else if (data.isArray()) {
            return "array";
        } else if (data.isObject()) {
            return "object";
        }
        return "null";
    }

    private void typeCheck(StructuralSchema s, String path, JsonNode data) {
        List<String> types = types(s);
        if (types.isEmpty()) {
            return;
        }
        String actual = jsonType(data);
        boolean floatInt = actual.equals("number") && isIntegral(data) && types.contains("integer");
        boolean intFloat = actual.equals("integer") && types.contains("number");
        if (!(types.contains(actual) || floatInt || intFloat)) {
            typeError(path, String.join(",", types), actual);
        }
    }

    private void typeError(String path, String expected, String actual) {
        causes.add(FieldErrors.typeInvalid(
                field(path), actual, path + IN + " must be of type " + expected + ": " + GoFormat.quote(actual)));
    }

    private void junctors(StructuralSchema s, String path, JsonNode data) {
        if (!s.anyOf().isEmpty()) {
            List<Status.Cause> firstFailure = null;
            boolean ok = false;
            for (StructuralSchema alt : s.anyOf()) {
                List<Status.Cause> r = validate(alt, path, data);
                if (r.isEmpty()) {
                    ok = true;
                    break;
                }
                if (firstFailure == null) {
                    firstFailure = r;
                }
            }
            if (!ok) {
                composite(GoFormat.quote(path) + " must validate at least one schema (anyOf)");
                causes.addAll(firstFailure);
            }
        }
        if (!s.oneOf().isEmpty()) {
            int valid = 0;
            List<Status.Cause> firstFailure = null;
            for (StructuralSchema alt : s.oneOf()) {
                List<Status.Cause> r = validate(alt, path, data);
                if (r.isEmpty()) {
                    valid++;
                } else if (firstFailure == null) {
                    firstFailure = r;
                }
            }
            if (valid != 1) {
                String more = valid == 0 ? "Found none valid" : "Found " + valid + " valid alternatives";
                composite(GoFormat.quote(path) + " must validate one and only one schema (oneOf). " + more);
                if (valid == 0) {
                    causes.addAll(firstFailure);
                }
            }
        }
        if (!s.allOf().isEmpty()) {
            int valid = 0;
            for (StructuralSchema alt : s.allOf()) {
                List<Status.Cause> r = validate(alt, path, data);
                if (r.isEmpty()) {
                    valid++;
                }
                causes.addAll(r);
            }
            if (valid != s.allOf().size()) {
                composite(GoFormat.quote(path) + " must validate all the schemas (allOf)"
                        + (valid == 0 ? ". None validated" : ""));
            }
        }
        if (s.not() != null && validate(s.not(), path, data).isEmpty()) {
            composite(GoFormat.quote(path) + " must not validate the schema (not)");
        }
    }

    /** kube-openapi composite errors are not field errors; apiextensions reports them against a nil path. */
    private void composite(String message) {
        causes.add(FieldErrors.invalid("<nil>", "", message));
    }

    private static List<Status.Cause> validate(StructuralSchema s, String path, JsonNode data) {
        SchemaValidator v = new SchemaValidator();
        v.node(s, path, data);
        return v.causes;
    }

    private void stringChecks(StructuralSchema s, String path, String str, JsonNode data) {
        long len = str.codePointCount(0, str.length());
        if (s.maxLength() != null && len > s.maxLength()) {
            causes.add(FieldErrors.tooLong(field(path), s.maxLength()));
            return;
        }
        if (s.minLength() != null && len < s.minLength()) {
            causes.add(FieldErrors.invalid(
                    field(path), data, path + IN + " should be at least " + s.minLength() + " chars long"));
            return;
        }
        if (s.pattern() != null && !s.pattern().matcher(str).find()) {
            causes.add(FieldErrors.invalid(field(path), data, path + IN + " should match '" + s.patternSource() + "'"));
        }
    }

    private void numberChecks(StructuralSchema s, String path, JsonNode data) {
        boolean integral = data.isIntegralNumber();
        if (s.multipleOf() != null) {
            boolean bad;
            String factor;
            if (integral && s.multipleOf() == Math.floor(s.multipleOf()) && s.multipleOf() != 0) {
                long f = s.multipleOf().longValue();
                bad = data.longValue() % f != 0;
                factor = Long.toString(f);
            } else {
                double q = data.doubleValue() / s.multipleOf();
                bad = q != Math.rint(q);
                factor = GoFormat.floatV(s.multipleOf());
            }
            if (bad) {
                causes.add(FieldErrors.invalid(field(path), data, path + IN + " should be a multiple of " + factor));
            }
        }
        if (s.minimum() != null) {
            String bound = integral ? Long.toString(s.minimum().longValue()) : GoFormat.floatV(s.minimum());
            int cmp = integral
                    ? Long.compare(data.longValue(), s.minimum().longValue())
                    : Double.compare(data.doubleValue(), s.minimum());
            if (s.exclusiveMinimum() ? cmp <= 0 : cmp < 0) {
                String op = s.exclusiveMinimum() ? " should be greater than " : " should be greater than or equal to ";
                causes.add(FieldErrors.invalid(field(path), data, path + IN + op + bound));
            }
        }
        if (s.maximum() != null) {
            String bound = integral ? Long.toString(s.maximum().longValue()) : GoFormat.floatV(s.maximum());
            int cmp = integral
                    ? Long.compare(data.longValue(), s.maximum().longValue())
                    : Double.compare(data.doubleValue(), s.maximum());
            if (s.exclusiveMaximum() ? cmp >= 0 : cmp > 0) {
                String op = s.exclusiveMaximum() ? " should be less than " : " should be less than or equal to ";
                causes.add(FieldErrors.invalid(field(path), data, path + IN + op + bound));
            }
        }
    }

    private void arrayChecks(StructuralSchema s, String path, JsonNode data) {
        if (s.items().isPresent()) {
            for (int i = 0; i < data.size(); i++) {
                node(s.items().get(), path + "[" + i + "]", data.get(i));
            }
        }
        if (s.minItems() != null && data.size() < s.minItems()) {
            causes.add(FieldErrors.invalidRendered(
                    field(path),
                    Integer.toString(data.size()),
                    path + IN + " should have at least " + s.minItems() + " items"));
        }
        if (s.maxItems() != null && data.size() > s.maxItems()) {
            causes.add(FieldErrors.tooMany(field(path), data.size(), s.maxItems()));
        }
        if (s.uniqueItems() && hasDuplicates(data)) {
            causes.add(FieldErrors.invalid(field(path), "", path + IN + " shouldn't contain duplicates"));
        }
        listTypeChecks(s, path, data);
    }

    /**
     * {@code x-kubernetes-list-type}: the items of a {@code set} are unique, the key fields of a
     * {@code map}'s items are unique; each repeat is a Duplicate cause at its index.
     */
    private void listTypeChecks(StructuralSchema s, String path, JsonNode data) {
        boolean set = s.listType().equals("set");
        boolean map = s.listType().equals("map") && !s.listMapKeys().isEmpty();
        if (!set && !map) {
            return;
        }
        for (int i = 1; i < data.size(); i++) {
            JsonNode item = data.get(i);
            for (int j = 0; j < i; j++) {
                boolean same = set ? jsonEquals(item, data.get(j)) : sameKeys(s.listMapKeys(), item, data.get(j));
                if (same) {
                    String value = set ? GoFormat.badValue(item) : goMapOfKeys(s.listMapKeys(), item);
                    causes.add(FieldErrors.duplicate(field(path + "[" + i + "]"), value));
                    break;
                }
            }
        }
    }

    private static boolean sameKeys(List<String> keys, JsonNode a, JsonNode b) {
        for (String k : keys) {
            JsonNode x = a.get(k);
            JsonNode y = b.get(k);
            if (x == null ? y != null : y == null || !jsonEquals(x, y)) {
                return false;
            }
        }
        return true;
    }

    /** Go's {@code %#v} of the item's key fields, e.g. {@code map[string]interface {}{"name":"a"}}. */
    private static String goMapOfKeys(List<String> keys, JsonNode item) {
        StringBuilder b = new StringBuilder("map[string]interface {}{");
        List<String> sorted = keys.stream().filter(item::has).sorted().toList();
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(GoFormat.quote(sorted.get(i))).append(':').append(GoFormat.badValue(item.get(sorted.get(i))));
        }
        return b.append('}').toString();
    }

    private static boolean hasDuplicates(JsonNode array) {
        for (int i = 0; i < array.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (jsonEquals(array.get(i), array.get(j))) {
                    return true;
                }
            }
        }
        return false;
    }

    private void enumCheck(StructuralSchema s, String path, JsonNode data) {
        if (s.enumValues().isEmpty()) {
            return;
        }
        for (JsonNode allowed : s.enumValues()) {
            if (data != null && !data.isMissingNode() && jsonEquals(allowed, data)) {
                return;
            }
        }
        List<String> values = new ArrayList<>();
        for (JsonNode allowed : s.enumValues()) {
            values.add(allowed.isString() ? allowed.stringValue() : GoFormat.json(allowed));
        }
        causes.add(FieldErrors.notSupported(field(path), GoFormat.badValue(data), values));
    }

    private void objectChecks(StructuralSchema s, String path, JsonNode data) {
        int size = data.size();
        if (s.minProperties() != null && size < s.minProperties()) {
            causes.add(FieldErrors.invalidRendered(
                    field(path),
                    Integer.toString(size),
                    path + IN + " should have at least " + s.minProperties() + " properties"));
        }
        if (s.maxProperties() != null && size > s.maxProperties()) {
            causes.add(FieldErrors.tooMany(field(path), size, s.maxProperties()));
        }
        if (s.additionalProperties().isPresent()) {
            StructuralSchema values = s.additionalProperties().get();
            for (Map.Entry<String, JsonNode> e : data.properties()) {
                if (!s.properties().containsKey(e.getKey())) {
                    node(values, path + "." + e.getKey(), e.getValue());
                }
            }
        }
        for (Map.Entry<String, StructuralSchema> p : s.properties().entrySet()) {
            JsonNode v = data.get(p.getKey());
            if (v != null) {
                node(p.getValue(), path.isEmpty() ? p.getKey() : path + "." + p.getKey(), v);
            }
        }
        for (String r : s.required()) {
            if (!data.has(r)) {
                causes.add(FieldErrors.required(field(path + "." + r), ""));
            }
        }
    }

    private static boolean isIntegral(JsonNode n) {
        double d = n.doubleValue();
        return !Double.isInfinite(d) && d == Math.rint(d);
    }

    /** JSON equality with numbers compared by value (1 equals 1.0), as Go's decoded values compare. */
    static boolean jsonEquals(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0
                    || new BigDecimal(a.asString()).compareTo(new BigDecimal(b.asString())) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : a.properties()) {
                JsonNode other = b.get(e.getKey());
                if (other == null || !jsonEquals(e.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!jsonEquals(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
