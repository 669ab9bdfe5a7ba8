package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.errors.Status;
import java.util.List;

/**
 * What {@link StructuralSchema#admit} found: the unknown fields it pruned and the validation causes
 * left after defaulting.
 *
 * <p>Immutable and thread-safe.
 *
 * @param unknownFields pruned field paths, sorted (e.g. {@code spec.foo}); feed them to
 *     {@link FieldValidationCheck#check}
 * @param causes validation failures; non-empty means 422 Invalid
 */
public record Admission(List<String> unknownFields, List<Status.Cause> causes) {

    public Admission {
        unknownFields = List.copyOf(unknownFields);
        causes = List.copyOf(causes);
    }

    /** True when the object passed validation (unknown fields do not count here). */
    public boolean valid() {
        return causes.isEmpty();
    }
}
