package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.errors.Status;
import java.util.List;

/**
 * A CRD schema that is not structural (or uses OpenAPI features CRDs forbid). The causes carry the
 * reasons, fields and messages the real apiextensions-apiserver reports, e.g. field
 * {@code spec.versions[0].schema.openAPIV3Schema.properties[spec].type}, reason
 * {@code FieldValueRequired}, message {@code Required value: must not be empty for specified object fields};
 * the CRD create/update answers 422 Invalid with them.
 */
public final class NonStructuralSchemaException extends IllegalArgumentException {

    private final transient List<Status.Cause> causes;

    public NonStructuralSchemaException(List<Status.Cause> causes) {
        super(summary(causes));
        this.causes = List.copyOf(causes);
    }

    /** One cause per problem, sorted as the real server sorts them; never empty. */
    public List<Status.Cause> causes() {
        return causes;
    }

    private static String summary(List<Status.Cause> causes) {
        if (causes.isEmpty()) {
            throw new IllegalArgumentException("causes must not be empty");
        }
        Status.Cause first = causes.getFirst();
        String more = causes.size() > 1 ? " (and " + (causes.size() - 1) + " more)" : "";
        return "schema is not structural: " + first.field() + ": " + first.message() + more;
    }
}
