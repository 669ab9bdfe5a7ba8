package io.kubeloop.controller.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.errors.NotFoundException;
import java.util.List;
import java.util.Optional;

/**
 * Reads Kubernetes objects by key or by selectors: controller-runtime's {@code client.Reader}. The
 * {@link Client} of a manager reads from its {@link Cache} (informers, no API call); the manager's
 * {@code apiReader()} reads from the API server.
 *
 * <p>Typed reads name a Java type the scheme knows (kubeloop's models of the built-in kinds, fabric8's
 * model classes with {@code kubeloop-fabric8}, records
 * annotated with {@link io.kubeloop.api.Kind @Kind}); dynamic reads name a
 * {@link GroupVersionKind} and return {@link DynamicObject}s.
 *
 * <p><b>Ownership:</b> every object returned belongs to the caller: it is a copy, or of an
 * immutable type ({@link DynamicObject}), so changing it changes nothing another reader sees.
 *
 * <p><b>Thread safety:</b> implementations are thread-safe.
 */
public interface Reader {

    /**
     * The object of {@code type} with {@code key}.
     *
     * @param type the object's Java type
     * @param key its namespace (empty for cluster-scoped kinds) and name
     * @param <T> the type
     * @return the object
     * @throws NotFoundException when there is no such object
     * @throws CacheScopeException when a cache is asked for an object outside its scope
     * @throws IllegalArgumentException when the scheme does not know {@code type}
     */
    <T> T get(Class<T> type, ObjectKey key);

    /**
     * The object of {@code kind} with {@code key}, as a {@link DynamicObject}.
     *
     * @param kind the object's group, version and kind
     * @param key its namespace (empty for cluster-scoped kinds) and name
     * @return the object
     * @throws NotFoundException when there is no such object
     * @throws CacheScopeException when a cache is asked for an object outside its scope
     */
    DynamicObject get(GroupVersionKind kind, ObjectKey key);

    /**
     * The objects of {@code type} that match every option: all of them without options.
     *
     * @param type the objects' Java type
     * @param options namespace, label selector, field selector; each kind at most once
     * @param <T> the type
     * @return the matching objects, in no particular order
     * @throws CacheScopeException when a cache is asked for objects outside its scope
     * @throws IllegalArgumentException when an option is given twice, or a cache is asked to select
     *     on a field it has no index for
     */
    <T> List<T> list(Class<T> type, ListOption... options);

    /**
     * {@link #list(Class, ListOption...)} for a kind, as {@link DynamicObject}s.
     *
     * @param kind the objects' group, version and kind
     * @param options namespace, label selector, field selector
     * @return the matching objects
     */
    List<DynamicObject> list(GroupVersionKind kind, ListOption... options);

    /**
     * The metadata of the object of {@code type} with {@code key}: its names, labels, annotations
     * and owners, without its body (controller-runtime's reads of {@code PartialObjectMetadata}). A
     * cache holds these in a metadata-only informer of the type, apart from whole objects.
     *
     * @param type the object's Java type (its kind)
     * @param key its namespace and name
     * @return the metadata, with {@code type}'s apiVersion and kind
     * @throws NotFoundException when there is no such object
     */
    PartialObjectMetadata getMetadata(Class<?> type, ObjectKey key);

    /**
     * The metadata of the objects of {@code type} that match every option.
     *
     * @param type the objects' Java type (their kind)
     * @param options namespace, label selector, field selector
     * @return their metadata, with {@code type}'s apiVersion and kind
     */
    List<PartialObjectMetadata> listMetadata(Class<?> type, ListOption... options);

    /**
     * {@link #get(Class, ObjectKey)}, empty instead of a {@link NotFoundException}.
     *
     * @param type the object's Java type
     * @param key its namespace and name
     * @param <T> the type
     * @return the object, or empty when there is none
     */
    default <T> Optional<T> getOptional(Class<T> type, ObjectKey key) {
        try {
            return Optional.of(get(type, key));
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * {@link #get(GroupVersionKind, ObjectKey)}, empty instead of a {@link NotFoundException}.
     *
     * @param kind the object's group, version and kind
     * @param key its namespace and name
     * @return the object, or empty when there is none
     */
    default Optional<DynamicObject> getOptional(GroupVersionKind kind, ObjectKey key) {
        try {
            return Optional.of(get(kind, key));
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }
}
