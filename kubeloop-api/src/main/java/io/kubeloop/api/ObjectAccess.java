package io.kubeloop.api;

import io.kubeloop.api.internal.ModelSupports;
import io.kubeloop.api.json.KubeJson;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads object metadata from any object type, so generic code (caches, key functions, selectors)
 * needs no common supertype: client-go's {@code meta.Accessor}.
 *
 * <p>Supported, fastest first:
 * <ol>
 *   <li>{@link DynamicObject}: namespace, name, resourceVersion and uid as read when it was decoded (compact
 *       form) or straight from the JSON tree (tree form); its labels by reading only
 *       {@code metadata.labels} from the bytes (compact form);</li>
 *   <li>{@link KubernetesObject} (user records): {@code metadata()};</li>
 *   <li>objects of a model family a {@link io.kubeloop.api.spi.ModelSupport} knows (fabric8's model classes
 *       with {@code kubeloop-fabric8}): their metadata as that support reads it, never through JSON;</li>
 *   <li>any class with a public {@code metadata()} or {@code getMetadata()} returning
 *       {@link ObjectMeta};</li>
 *   <li>anything else Jackson can write: through its JSON {@code metadata} field (slow; a fallback).</li>
 * </ol>
 *
 * <p>The single-field readers ({@link #namespace}, {@link #name}, {@link #key},
 * {@link #resourceVersion}, {@link #uid}, {@link #labels}) allocate nothing for the first two kinds
 * of objects; prefer them on hot paths over {@link #metadata}.
 *
 * <p>Stateless apart from a per-class cache of accessor methods; thread-safe.
 */
public final class ObjectAccess {

    /** Per class: a handle to its {@code metadata()}/{@code getMetadata()} returning ObjectMeta, or null. */
    private static final ClassValue<MethodHandle> ACCESSORS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            for (String name : List.of("metadata", "getMetadata")) {
                try {
                    return MethodHandles.publicLookup()
                            .findVirtual(type, name, MethodType.methodType(ObjectMeta.class));
                } catch (NoSuchMethodException | IllegalAccessException e) {
                    // try the next name
                }
            }
            return null;
        }
    };

    private ObjectAccess() {}

    /**
     * The object's metadata; an empty {@link ObjectMeta} when the object has none.
     *
     * @throws IllegalArgumentException when the object cannot be read as JSON at all
     */
    public static ObjectMeta metadata(Object object) {
        ObjectMeta m;
        if (object instanceof KubernetesObject k) {
            m = k.metadata();
        } else {
            m = ModelSupports.metadata(object);
            if (m == null) {
                m = slow(object);
            }
        }
        return m == null ? ObjectMeta.builder().build() : m;
    }

    /** The namespace, {@code ""} for cluster-scoped objects (or when unset). */
    public static String namespace(Object object) {
        String ns;
        if (object instanceof DynamicObject d) {
            ns = d.metaNamespace();
        } else if (object instanceof KubernetesObject k) {
            ns = k.metadata() == null ? null : k.metadata().namespace();
        } else {
            ns = metadata(object).namespace();
        }
        return ns == null ? "" : ns;
    }

    /** The name; null when unset (an object to be created with {@code generateName}). */
    public static String name(Object object) {
        if (object instanceof DynamicObject d) {
            return d.metaName();
        } else if (object instanceof KubernetesObject k) {
            return k.metadata() == null ? null : k.metadata().name();
        }
        return metadata(object).name();
    }

    /**
     * The object's key, {@code namespace/name} or {@code name} (client-go's {@code MetaNamespaceKeyFunc}).
     *
     * @throws IllegalArgumentException when the object has no name
     */
    public static ObjectKey key(Object object) {
        String name = name(object);
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("object has no metadata.name: " + describe(object));
        }
        return ObjectKey.of(namespace(object), name);
    }

    /** The resourceVersion, null when unset. */
    public static String resourceVersion(Object object) {
        if (object instanceof DynamicObject d) {
            return d.metaResourceVersion();
        } else if (object instanceof KubernetesObject k) {
            return k.metadata() == null ? null : k.metadata().resourceVersion();
        }
        return metadata(object).resourceVersion();
    }

    /** The uid, null when unset. */
    public static String uid(Object object) {
        if (object instanceof DynamicObject d) {
            return d.metaUid();
        } else if (object instanceof KubernetesObject k) {
            return k.metadata() == null ? null : k.metadata().uid();
        }
        return metadata(object).uid();
    }

    /** The labels, an empty map when none; read-only. */
    public static Map<String, String> labels(Object object) {
        Map<String, String> labels;
        if (object instanceof DynamicObject d && d.isCompact()) {
            labels = d.compactLabels();
        } else if (object instanceof KubernetesObject k) {
            labels = k.metadata() == null ? null : k.metadata().labels();
        } else {
            labels = metadata(object).labels();
        }
        return labels == null ? Map.of() : labels;
    }

    /** The owner references, an empty list when none; read-only. */
    public static List<OwnerReference> ownerReferences(Object object) {
        List<OwnerReference> refs;
        if (object instanceof KubernetesObject k) {
            refs = k.metadata() == null ? null : k.metadata().ownerReferences();
        } else {
            refs = metadata(object).ownerReferences();
        }
        return refs == null ? List.of() : refs;
    }

    private static ObjectMeta slow(Object object) {
        MethodHandle accessor = ACCESSORS.get(object.getClass());
        if (accessor != null) {
            try {
                return (ObjectMeta) accessor.invoke(object);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
        JsonNode tree;
        try {
            tree = KubeJson.mapper().valueToTree(object);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "cannot read metadata of " + describe(object) + ": " + e.getMessage(), e);
        }
        JsonNode meta = tree == null ? null : tree.get("metadata");
        return meta == null || !meta.isObject() ? null : KubeJson.mapper().treeToValue(meta, ObjectMeta.class);
    }

    private static String describe(Object object) {
        return object == null ? "null" : object.getClass().getName();
    }
}
