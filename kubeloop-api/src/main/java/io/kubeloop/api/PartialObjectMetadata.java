package io.kubeloop.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * An object's metadata without its body: {@code meta.k8s.io/v1} {@code PartialObjectMetadata}, what
 * the API server answers when asked for metadata only. For controllers that need only names, labels,
 * annotations and owners of large kinds (Pods, Secrets): a cache of these holds a fraction of the
 * objects' size.
 *
 * <p>As read from the server, {@code apiVersion} and {@code kind} are {@code meta.k8s.io/v1} and
 * {@code PartialObjectMetadata}; a manager's cache sets them to the object's own kind
 * ({@link #withKind}), as controller-runtime's metadata reads do.
 *
 * <p>Immutable when its metadata is (a cache hands out copies).
 *
 * @param apiVersion the apiVersion
 * @param kind the kind
 * @param metadata the object's metadata
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PartialObjectMetadata(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {

    /**
     * This metadata as that of an object of {@code kind}.
     *
     * @param kind the object's group, version and kind
     * @return a copy with {@code kind}'s apiVersion and kind
     */
    public PartialObjectMetadata withKind(GroupVersionKind kind) {
        Objects.requireNonNull(kind, "kind");
        return new PartialObjectMetadata(kind.apiVersion(), kind.kind(), metadata);
    }
}
