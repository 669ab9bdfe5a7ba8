package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.ManagedFieldsEntry;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * An object to store after a write, with its new {@code metadata.managedFields} already set.
 *
 * @param object the object to persist ({@code metadata.managedFields} included)
 * @param managedFields the same entries as records, sorted as the real server sorts them
 */
public record ManagedObject(JsonNode object, List<ManagedFieldsEntry> managedFields) {

    public ManagedObject {
        managedFields = List.copyOf(managedFields);
    }
}
