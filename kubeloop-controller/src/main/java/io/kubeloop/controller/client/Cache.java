package io.kubeloop.controller.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.cache.SharedIndexInformer;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * The manager's informers as a {@link Reader}: controller-runtime's {@code cache.Cache}. The
 * informers of a type start on its first read (or with the manager, when a controller watches it), and a read waits
 * until they have synced, for at most {@link CacheOptions#syncTimeout()}. What is held is what
 * {@link CacheOptions} scopes: per type, a set of namespaces (one informer each) or all of them,
 * and label and field selectors applied by the server, so objects outside the scope take no memory.
 * A read in a namespace outside the scope throws {@link CacheScopeException}; an object outside the
 * selectors is simply not found.
 *
 * <p>Objects read are copies the caller owns (see {@link Reader}), unless the type's scope says
 * {@link ByObject#withUnsafeDisableDeepCopy()}.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public interface Cache extends Reader {

    /**
     * Indexes {@code type}'s objects by the values {@code extractor} finds in them, so that
     * {@link ListOption#matchingField(String, String) matchingField(field, value)} lists them from
     * the index: controller-runtime's {@code IndexField}. Register indexes before the type's first
     * read or watch.
     *
     * {@snippet :
     * cache.indexField(Pod.class, "spec.nodeName", pod -> List.of(pod.getSpec().getNodeName()));
     * List<Pod> onNode = client.list(Pod.class, matchingField("spec.nodeName", "node-1"));
     * }
     *
     * @param type the indexed type
     * @param field the name used in {@code matchingField}, usually the field's path
     * @param extractor the values of one object; empty (or nulls) for none
     * @param <T> the type
     * @throws IllegalArgumentException when {@code field} is indexed already for {@code type}
     * @throws IllegalStateException when the type's informers have started
     */
    <T> void indexField(Class<T> type, String field, Function<? super T, ? extends Collection<String>> extractor);

    /**
     * The informers holding {@code type}'s objects in this cache's scope — one per namespace of the
     * scope, or one over all namespaces — made if need be, but not started: the manager starts them
     * (and a read does). Controllers watch these.
     *
     * @param type the type
     * @param <T> the type
     * @return the informers, at least one
     */
    <T> List<SharedIndexInformer<T>> informersFor(Class<T> type);

    /**
     * The informers holding {@code kind}'s objects as {@link DynamicObject}s in this cache's scope
     * (those {@link Reader#get(GroupVersionKind, io.kubeloop.api.ObjectKey)} reads), made if need be
     * but not started.
     *
     * @param kind the kind
     * @return the informers, at least one
     */
    List<SharedIndexInformer<DynamicObject>> informersFor(GroupVersionKind kind);

    /**
     * The metadata-only informers of {@code type} in this cache's scope (see
     * {@link Reader#getMetadata}), made if need be but not started. Controllers watching a type
     * with {@code ownsMetadataOnly} watch these.
     *
     * @param type the type
     * @return the informers, at least one
     */
    List<SharedIndexInformer<PartialObjectMetadata>> metadataInformersFor(Class<?> type);
}
