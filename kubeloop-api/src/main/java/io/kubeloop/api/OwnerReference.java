package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A reference from a dependent to its owner, as in {@code metadata.ownerReferences}. The garbage
 * collector deletes a dependent once all of its owners are gone.
 *
 * @param apiVersion the owner's apiVersion
 * @param kind the owner's kind
 * @param name the owner's name
 * @param uid the owner's uid
 * @param controller true for the one managing controller, if any
 * @param blockOwnerDeletion true if foreground deletion of the owner waits for this dependent
 */
@Immutable
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public record OwnerReference(
        String apiVersion, String kind, String name, String uid, Boolean controller, Boolean blockOwnerDeletion) {

    /** True when this reference marks the managing controller. */
    public boolean isController() {
        return Boolean.TRUE.equals(controller);
    }
}
