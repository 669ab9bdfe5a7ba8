/**
 * The resource model.
 *
 * <ul>
 *   <li>Names: {@link io.kubeloop.api.GroupVersion}, {@link io.kubeloop.api.GroupKind},
 *       {@link io.kubeloop.api.GroupResource}, {@link io.kubeloop.api.GroupVersionKind},
 *       {@link io.kubeloop.api.GroupVersionResource} and {@link io.kubeloop.api.ObjectKey} (namespace/name),
 *       all records that parse and print the forms kubectl uses.</li>
 *   <li>Objects: the {@link io.kubeloop.api.KubernetesObject} contract with
 *       {@link io.kubeloop.api.ObjectMeta}, user records, {@link io.kubeloop.api.DynamicObject}
 *       (unstructured; a JSON tree or, as decoded by kubeloop's client, the object's compact JSON
 *       bytes with its identity read from them), kubeloop's models of the built-in kinds and any
 *       other Jackson-mappable model (fabric8's), all mapped by
 *       {@link io.kubeloop.api.json.KubeJson}.</li>
 *   <li>Types: {@link io.kubeloop.api.Scheme} maps Java types to kinds (and, with
 *       {@link io.kubeloop.api.ResourceMapping}, to resources and scope); user types declare
 *       theirs with {@link io.kubeloop.api.Kind}.</li>
 *   <li>Generic access: {@link io.kubeloop.api.ObjectAccess} reads metadata from any of them, cheaply.</li>
 * </ul>
 *
 * <p>Selectors are in {@link io.kubeloop.api.selector}, API errors in {@link io.kubeloop.api.errors}.
 */
package io.kubeloop.api;
