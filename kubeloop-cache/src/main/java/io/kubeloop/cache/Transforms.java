package io.kubeloop.cache;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.internal.ModelSupports;
import io.kubeloop.api.json.KubeJson;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Ready-made informer transforms ({@link SharedIndexInformer#setTransform}).
 *
 * <p>Stateless apart from a per-class cache of record accessors; thread-safe.
 */
public final class Transforms {

    /** Per record class: its canonical constructor and component accessors, or null when it has no ObjectMeta metadata. */
    private static final ClassValue<RecordShape> SHAPES = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return RecordShape.of(type);
        }
    };

    private Transforms() {}

    /**
     * Drops {@code metadata.managedFields} (controller-runtime's {@code TransformStripManagedFields}),
     * typically a third of a cached object's size. Idempotent. A {@link DynamicObject} becomes {@link
     * DynamicObject#withoutManagedFields()} (a compact one a compact copy, no parse); records with an {@link
     * ObjectMeta} {@code metadata} component are
     * rebuilt; objects of a model family that a {@link io.kubeloop.api.spi.ModelSupport} knows are
     * handled by it (fabric8's model objects are changed in place, with {@code kubeloop-fabric8});
     * other objects (beans) are read back into their class from their JSON without them; anything else
     * passes unchanged.
     */
    public static <T> UnaryOperator<T> stripManagedFields() {
        return Transforms::strip;
    }

    @SuppressWarnings("unchecked")
    private static <T> T strip(T object) {
        if (object instanceof DynamicObject d) {
            return (T) d.withoutManagedFields();
        }
        if (object instanceof Record) {
            RecordShape shape = SHAPES.get(object.getClass());
            if (shape != null) {
                return (T) shape.withoutManagedFields(object);
            }
            return object;
        }
        Object supported = ModelSupports.withoutManagedFields(object);
        return supported != null ? (T) supported : withoutManagedFieldsThroughJson(object);
    }

    /**
     * Any other object (a bean): through its JSON tree, without {@code
     * metadata.managedFields}, back into its class; unchanged when it has none or cannot be read back.
     */
    @SuppressWarnings("unchecked") // read back into the object's own class
    private static <T> T withoutManagedFieldsThroughJson(T object) {
        JsonNode tree;
        try {
            tree = KubeJson.mapper().valueToTree(object);
        } catch (RuntimeException notJson) {
            return object;
        }
        if (!(tree != null && tree.get("metadata") instanceof ObjectNode m && m.has("managedFields"))) {
            return object;
        }
        m.remove("managedFields");
        try {
            return (T) KubeJson.mapper().treeToValue(tree, object.getClass());
        } catch (RuntimeException notReadBack) {
            return object;
        }
    }

    /** How to rebuild one record class with other metadata. */
    private record RecordShape(MethodHandle constructor, MethodHandle[] accessors, int metadataIndex) {

        /** {@code (Object) -> Object} for accessors, {@code (Object[]) -> Object} for the constructor. */
        private static final MethodType ACCESSOR = MethodType.methodType(Object.class, Object.class);

        static RecordShape of(Class<?> type) {
            if (!type.isRecord()) {
                return null;
            }
            try {
                RecordComponent[] components = type.getRecordComponents();
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                MethodHandle[] accessors = new MethodHandle[components.length];
                Class<?>[] types = new Class<?>[components.length];
                int metadata = -1;
                for (int i = 0; i < components.length; i++) {
                    components[i].getAccessor().setAccessible(true);
                    accessors[i] = lookup.unreflect(components[i].getAccessor()).asType(ACCESSOR);
                    types[i] = components[i].getType();
                    if (components[i].getName().equals("metadata") && types[i] == ObjectMeta.class) {
                        metadata = i;
                    }
                }
                if (metadata < 0) {
                    return null;
                }
                var ctor = type.getDeclaredConstructor(types);
                ctor.setAccessible(true);
                MethodHandle constructor = lookup.unreflectConstructor(ctor);
                constructor = constructor.asType(constructor.type().generic()).asSpreader(Object[].class, types.length);
                return new RecordShape(constructor, accessors, metadata);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null; // not accessible: leave such objects unchanged
            }
        }

        Object withoutManagedFields(Object record) {
            try {
                ObjectMeta meta = (ObjectMeta) (Object) accessors[metadataIndex].invokeExact(record);
                if (meta == null || meta.managedFields() == null) {
                    return record;
                }
                Object[] args = new Object[accessors.length];
                for (int i = 0; i < args.length; i++) {
                    args[i] = i == metadataIndex
                            ? meta.toBuilder().managedFields(null).build()
                            : (Object) accessors[i].invokeExact(record);
                }
                return (Object) constructor.invokeExact(args);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(
                        "cannot rebuild " + record.getClass().getName(), t);
            }
        }
    }
}
