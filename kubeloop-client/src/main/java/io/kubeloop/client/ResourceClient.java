package io.kubeloop.client;

import io.kubeloop.api.GroupVersionResource;
import java.util.Optional;

/**
 * Typed access to one resource (a {@link GroupVersionResource}) in one namespace, in all
 * namespaces, or cluster-wide: client-go's dynamic {@code ResourceInterface} with a Java type.
 * {@code T} is {@link io.kubeloop.api.DynamicObject} or any Jackson-mappable class or record
 * (kubeloop's models of the built-in kinds, fabric8 model classes).
 *
 * {@snippet :
 * ResourceClient<DynamicObject> cms = client.resource(new GroupVersionResource("", "v1", "configmaps"), ResourceScope.NAMESPACED,
 *         DynamicObject.class).inNamespace("demo");
 * ObjectList<DynamicObject> page = cms.list(ListOptions.builder().labelSelector("app=web").limit(500).build());
 * try (Watch<DynamicObject> watch = cms.watch(ListOptions.builder().resourceVersion(page.resourceVersion()).build())) {
 *     for (WatchEvent<DynamicObject> event : watch) { ... }
 * }
 * }
 *
 * <p><b>Namespaces.</b> A namespaced resource's client starts in the {@link KubeClient#namespace()
 * default namespace}. Calls by name (get, patch, delete) use the client's namespace and fail with
 * IllegalStateException on an all-namespaces client. create and update use the object's
 * {@code metadata.namespace} when set, else the client's; an object namespace that differs from a
 * namespace chosen with {@link #inNamespace} is rejected with IllegalArgumentException.
 *
 * <p><b>Errors.</b> Non-2xx replies throw the typed {@code ApiException} (NotFoundException,
 * ConflictException…); no HTTP answer throws {@code TransportException}.
 *
 * <p><b>Thread safety.</b> Immutable and thread-safe; {@code inNamespace} returns a new client.
 *
 * @param <T> the Java type objects are read into and written from
 */
public interface ResourceClient<T> {

    /** The resource this client addresses. */
    GroupVersionResource resource();

    /** True for namespaced resources. */
    boolean namespaced();

    /** The namespace requests go to; empty for cluster-scoped resources and all-namespaces clients. */
    Optional<String> namespace();

    /**
     * The same client in another namespace.
     *
     * @throws IllegalStateException for a cluster-scoped resource
     */
    ResourceClient<T> inNamespace(String namespace);

    /** The same client across all namespaces (list, watch, deleteCollection only). */
    ResourceClient<T> inAnyNamespace();

    /** GET one object by name. */
    T get(String name);

    /**
     * GET the {@code scale} subresource of the object {@code name}.
     *
     * @throws io.kubeloop.api.errors.NotFoundException when there is no such object, or its kind has
     *     no scale subresource
     */
    Scale getScale(String name);

    /**
     * Sets the replicas of the object {@code name} through its {@code scale} subresource (a merge
     * patch of {@code spec.replicas}, as {@code kubectl scale} without preconditions).
     *
     * @return the scale after the change
     */
    Scale scale(String name, int replicas);

    /** One page (or everything, without a limit) of the collection. */
    ObjectList<T> list(ListOptions options);

    /**
     * One page of the collection, as {@link #list(ListOptions)}, returned as soon as the reply's list metadata
     * (resourceVersion, continue token) has arrived — before its items, which {@link ListStream#read()} then
     * decodes as they arrive. A pager can ask for the next page while this one is being read. The caller closes
     * the stream (reading it to the end does).
     *
     * <p>The default lists with {@link #list(ListOptions)} and returns the decoded page.
     *
     * @throws io.kubeloop.api.errors.ApiException for error replies (e.g. GoneException for an expired continue token)
     */
    default ListStream<T> openList(ListOptions options) {
        return ListStream.of(list(options));
    }

    /** {@code list(ListOptions.none())}. */
    default ObjectList<T> list() {
        return list(ListOptions.none());
    }

    /**
     * Lists page by page, following continue tokens (the first request uses {@code options}; the
     * follow-ups drop resourceVersion/resourceVersionMatch, as client-go's pager does), and returns
     * all items with the first page's resourceVersion.
     */
    ObjectList<T> listAll(ListOptions options);

    /**
     * Opens a watch ({@code watch=true} plus the options' parameters).
     *
     * @throws io.kubeloop.api.errors.ApiException when the server refuses the watch request
     */
    Watch<T> watch(ListOptions options);

    /** POST a new object; returns what the server stored. */
    T create(T object, WriteOptions options);

    /** {@link #create(Object, WriteOptions)} with no options. */
    default T create(T object) {
        return create(object, WriteOptions.none());
    }

    /**
     * PUT the whole object. The object's {@code metadata.resourceVersion} is sent as is, so a stale
     * copy fails with ConflictException (optimistic concurrency).
     */
    T update(T object, WriteOptions options);

    /** {@link #update(Object, WriteOptions)} with no options. */
    default T update(T object) {
        return update(object, WriteOptions.none());
    }

    /** PUT the object to the {@code status} subresource (only its status changes). */
    T updateStatus(T object, WriteOptions options);

    /**
     * PATCH an object.
     *
     * @param body the patch: a String or byte[] is sent verbatim, anything else is written as JSON
     * @throws IllegalArgumentException for an APPLY patch without fieldManager, or force on other types
     */
    T patch(String name, PatchType type, Object body, PatchOptions options);

    /** {@link #patch(String, PatchType, Object, PatchOptions)} with no options (not for APPLY, which needs a field manager). */
    default T patch(String name, PatchType type, Object body) {
        return patch(name, type, body, PatchOptions.none());
    }

    /** PATCH the {@code status} subresource; as {@link #patch}. */
    T patchStatus(String name, PatchType type, Object body, PatchOptions options);

    /** DELETE one object; see {@link DeleteResult} for what comes back. */
    DeleteResult<T> delete(String name, DeleteOptions options);

    /** {@link #delete(String, DeleteOptions)} with the server's default options (background propagation). */
    default DeleteResult<T> delete(String name) {
        return delete(name, DeleteOptions.none());
    }

    /** DELETE every object matching the list options (selectors) in this client's scope. */
    void deleteCollection(ListOptions listOptions, DeleteOptions deleteOptions);
}
