package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kubeloop.api.json.Frozen;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One entry of {@code metadata.managedFields}: which manager owns which fields (server-side apply).
 *
 * @param manager the field manager name
 * @param operation {@code Apply} or {@code Update}
 * @param apiVersion the version the field set is expressed in
 * @param time when the entry last changed
 * @param fieldsType always {@code FieldsV1}
 * @param fieldsV1 the field set, kept as a JSON tree that cannot be changed (a tree given here is copied into
 *     one, unless it is one already: those the readers of kubeloop's models read are)
 * @param subresource the subresource the write went to, e.g. {@code status}
 */
@Immutable
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ManagedFieldsEntry(
        String manager,
        String operation,
        String apiVersion,
        Instant time,
        String fieldsType,
        JsonNode fieldsV1,
        String subresource) {

    /** Freezes {@code fieldsV1} ({@link Frozen#tree}). */
    public ManagedFieldsEntry {
        fieldsV1 = Frozen.tree(fieldsV1);
    }
}
