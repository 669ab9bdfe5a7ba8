package io.kubeloop.apiserver.internal.cel;

import io.kubeloop.apiserver.internal.schema.StructuralSchema;

/**
 * A rule's {@code fieldPath}: a path relative to the rule's node made of {@code .name} steps and
 * {@code ['key']} steps (for names with dots and map keys), e.g. {@code .spec.replicas} or
 * {@code .labels['app.kubernetes.io/name']}; list indexes are not allowed. Resolved against the
 * schema when the rule compiles, so a path naming no field is a CRD error. Stateless.
 *
 * @param suffix the path as a field path suffix, {@code .spec.replicas} or {@code .labels[a.b]}
 * @param type the schema type of the field it names (the Invalid value of failures reported there)
 */
record RuleFieldPath(String suffix, String type) {

    /**
     * Resolves {@code path} under {@code schema}.
     *
     * @throws IllegalArgumentException with kube-apiserver's detail when malformed or naming no field
     */
    static RuleFieldPath resolve(StructuralSchema schema, String path) {
        StringBuilder suffix = new StringBuilder();
        StructuralSchema at = schema;
        int i = 0;
        while (i < path.length()) {
            String name;
            boolean key;
            if (path.charAt(i) == '.') {
                int end = i + 1;
                while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
                    end++;
                }
                name = path.substring(i + 1, end);
                key = false;
                i = end;
            } else if (path.startsWith("['", i)) {
                int end = path.indexOf("']", i + 2);
                if (end < 0) {
                    throw invalid("unclosed bracket in " + path);
                }
                name = path.substring(i + 2, end);
                key = true;
                i = end + 2;
            } else {
                throw invalid("expected [ or . at " + i + " of " + path);
            }
            if (name.isEmpty()) {
                throw invalid("empty field name in " + path);
            }
            StructuralSchema next = at.properties().get(name);
            if (next == null) {
                next = at.additionalProperties().orElse(null);
            }
            if (next == null) {
                throw invalid("does not refer to a valid field");
            }
            suffix.append(key ? "[" + name + "]" : "." + name);
            at = next;
        }
        if (suffix.isEmpty()) {
            throw invalid("does not refer to a valid field");
        }
        return new RuleFieldPath(suffix.toString(), at.type());
    }

    private static IllegalArgumentException invalid(String detail) {
        return new IllegalArgumentException("fieldPath must be a valid path: " + detail);
    }
}
