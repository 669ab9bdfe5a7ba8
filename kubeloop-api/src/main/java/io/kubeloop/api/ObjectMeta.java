package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kubeloop.api.json.Frozen;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The standard object metadata ({@code metadata}) with every field controllers use.
 *
 * <p>Absent fields are null (not empty), so that a round trip through kubeloop writes back exactly
 * what the server sent. The collection accessors {@link #labelsOrEmpty()} and friends spare callers
 * the null checks. Immutable when built through {@link Builder}; the maps and lists are not copied
 * on construction, so do not change them after handing them over.
 *
 * @param name the object's name, unique within its namespace and resource
 * @param generateName a prefix from which the server generates a unique name when {@code name} is empty
 * @param namespace the namespace; null for cluster-scoped objects
 * @param uid the server-assigned unique id; a re-created object with the same name has a new uid
 * @param resourceVersion the opaque version of this object, used for optimistic concurrency
 * @param generation the sequence number of spec changes, set by the server
 * @param creationTimestamp when the server created the object
 * @param deletionTimestamp when deletion was requested; set means the object is terminating
 * @param deletionGracePeriodSeconds the grace period of a pending deletion
 * @param labels identifying key/value pairs, matched by label selectors
 * @param annotations non-identifying key/value pairs
 * @param ownerReferences the objects this one depends on
 * @param finalizers names that must be removed before a terminating object goes away
 * @param managedFields server-side apply field ownership
 * @param selfLink deprecated and no longer set by servers; kept for round trips
 */
@Immutable
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public record ObjectMeta(
        String name,
        String generateName,
        String namespace,
        String uid,
        String resourceVersion,
        Long generation,
        Instant creationTimestamp,
        Instant deletionTimestamp,
        Long deletionGracePeriodSeconds,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<OwnerReference> ownerReferences,
        List<String> finalizers,
        List<ManagedFieldsEntry> managedFields,
        String selfLink) {

    /**
     * Freezes the maps and lists it is given ({@link Frozen}): metadata is deeply immutable, so objects that
     * hold it can be shared by a cache and every reader with no copy.
     */
    public ObjectMeta {
        labels = Frozen.map(labels);
        annotations = Frozen.map(annotations);
        ownerReferences = Frozen.list(ownerReferences);
        finalizers = Frozen.list(finalizers);
        managedFields = Frozen.list(managedFields);
    }

    /** Metadata with just a namespace and a name. */
    public static ObjectMeta of(String namespace, String name) {
        return builder().namespace(namespace).name(name).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The labels, or an empty map when none are set. */
    public Map<String, String> labelsOrEmpty() {
        return labels == null ? Map.of() : labels;
    }

    /** The annotations, or an empty map when none are set. */
    public Map<String, String> annotationsOrEmpty() {
        return annotations == null ? Map.of() : annotations;
    }

    /** The owner references, or an empty list when none are set. */
    public List<OwnerReference> ownerReferencesOrEmpty() {
        return ownerReferences == null ? List.of() : ownerReferences;
    }

    /** The finalizers, or an empty list when none are set. */
    public List<String> finalizersOrEmpty() {
        return finalizers == null ? List.of() : finalizers;
    }

    /** True once deletion was requested (the object waits for its finalizers). */
    public boolean isTerminating() {
        return deletionTimestamp != null;
    }

    /**
     * Builds {@link ObjectMeta}; not thread-safe. Collections passed in are copied when built (unless unmodifiable).
     */
    public static final class Builder {
        private String name;
        private String generateName;
        private String namespace;
        private String uid;
        private String resourceVersion;
        private Long generation;
        private Instant creationTimestamp;
        private Instant deletionTimestamp;
        private Long deletionGracePeriodSeconds;
        private Map<String, String> labels;
        private Map<String, String> annotations;
        private List<OwnerReference> ownerReferences;
        private List<String> finalizers;
        private List<ManagedFieldsEntry> managedFields;
        private String selfLink;

        private Builder() {}

        private Builder(ObjectMeta m) {
            name = m.name;
            generateName = m.generateName;
            namespace = m.namespace;
            uid = m.uid;
            resourceVersion = m.resourceVersion;
            generation = m.generation;
            creationTimestamp = m.creationTimestamp;
            deletionTimestamp = m.deletionTimestamp;
            deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
            labels = m.labels;
            annotations = m.annotations;
            ownerReferences = m.ownerReferences;
            finalizers = m.finalizers;
            managedFields = m.managedFields;
            selfLink = m.selfLink;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder generateName(String generateName) {
            this.generateName = generateName;
            return this;
        }

        public Builder namespace(String namespace) {
            this.namespace = namespace;
            return this;
        }

        public Builder uid(String uid) {
            this.uid = uid;
            return this;
        }

        public Builder resourceVersion(String resourceVersion) {
            this.resourceVersion = resourceVersion;
            return this;
        }

        public Builder generation(Long generation) {
            this.generation = generation;
            return this;
        }

        public Builder creationTimestamp(Instant t) {
            this.creationTimestamp = t;
            return this;
        }

        public Builder deletionTimestamp(Instant t) {
            this.deletionTimestamp = t;
            return this;
        }

        public Builder deletionGracePeriodSeconds(Long s) {
            this.deletionGracePeriodSeconds = s;
            return this;
        }

        public Builder labels(Map<String, String> labels) {
            this.labels = labels;
            return this;
        }

        public Builder annotations(Map<String, String> annotations) {
            this.annotations = annotations;
            return this;
        }

        public Builder ownerReferences(List<OwnerReference> refs) {
            this.ownerReferences = refs;
            return this;
        }

        public Builder finalizers(List<String> finalizers) {
            this.finalizers = finalizers;
            return this;
        }

        public Builder managedFields(List<ManagedFieldsEntry> fields) {
            this.managedFields = fields;
            return this;
        }

        public Builder selfLink(String selfLink) {
            this.selfLink = selfLink;
            return this;
        }

        /** Adds (or replaces) one label. */
        public Builder label(String key, String value) {
            labels = labels == null ? new LinkedHashMap<>() : new LinkedHashMap<>(labels);
            labels.put(key, value);
            return this;
        }

        /** Adds (or replaces) one annotation. */
        public Builder annotation(String key, String value) {
            annotations = annotations == null ? new LinkedHashMap<>() : new LinkedHashMap<>(annotations);
            annotations.put(key, value);
            return this;
        }

        /** Adds one finalizer unless present. */
        public Builder finalizer(String finalizer) {
            finalizers = finalizers == null ? new ArrayList<>() : new ArrayList<>(finalizers);
            if (!finalizers.contains(finalizer)) {
                finalizers.add(finalizer);
            }
            return this;
        }

        /** Adds one owner reference. */
        public Builder ownerReference(OwnerReference ref) {
            ownerReferences = ownerReferences == null ? new ArrayList<>() : new ArrayList<>(ownerReferences);
            ownerReferences.add(ref);
            return this;
        }

        public ObjectMeta build() {
            return new ObjectMeta(
                    name,
                    generateName,
                    namespace,
                    uid,
                    resourceVersion,
                    generation,
                    creationTimestamp,
                    deletionTimestamp,
                    deletionGracePeriodSeconds,
                    labels,
                    annotations,
                    ownerReferences,
                    finalizers,
                    managedFields,
                    selfLink);
        }
    }
}
