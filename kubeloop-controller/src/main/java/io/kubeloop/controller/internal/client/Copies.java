package io.kubeloop.controller.internal.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.Immutable;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.json.KubeJson;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import tools.jackson.databind.JsonNode;

/**
 * Deep copies of cached objects for readers to own: controller-runtime's deep copy on cache reads.
 *
 * <ul>
 *   <li>{@link DynamicObject}s, types annotated {@link Immutable @Immutable} (kubeloop's models of the
 *       built-in kinds), and records whose every component is declared of an immutable type (a string, a
 *       boxed primitive, an enum, a {@code java.time} value, an {@code @Immutable} type, or such a record:
 *       the sample's {@code Foo}) are immutable and returned as they are.
 *   <li>Records (custom resources such as the sample's {@code Foo}, and kubeloop's own metadata
 *       types) are copied component by component through their accessors and canonical constructor:
 *       nested records the same way, lists, sets and maps into new {@link ArrayList}s,
 *       {@link LinkedHashSet}s and {@link LinkedHashMap}s of copied elements, JSON trees by
 *       {@link JsonNode#deepCopy()}; strings, boxed numbers, enums and {@code java.time} values are
 *       immutable and shared.
 *   <li>Other objects (fabric8 models, plain Java beans) are copied field by field into a new instance
 *       made by their no-argument constructor, each field's value copied by these same rules — as
 *       Go's generated {@code DeepCopy} does.
 *   <li>What cannot be copied so (a class outside this module's reach, without a no-argument
 *       constructor, or a JDK type not named above) is serialized into Jackson's token buffer and
 *       bound back: the JSON form the informer decoded it from, without the text.
 * </ul>
 *
 * Every copy equals its original and shares nothing mutable with it.
 *
 * <p>Thread-safe: an instance holds only concurrent caches of per-class accessors and annotations.
 */
final class Copies {

    private final Map<Class<?>, RecordShape> shapes = new ConcurrentHashMap<>();
    private final Map<Class<?>, BeanShape> beans = new ConcurrentHashMap<>();

    /** Per class: whether it is annotated {@link Immutable} (looked up once, not on every copied value). */
    private final ClassValue<Boolean> immutable = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.isAnnotationPresent(Immutable.class);
        }
    };

    /**
     * Per class: whether every instance is deeply immutable by its declaration alone — {@link #immutable} or a
     * record whose components are all declared of such types (looked up once per class).
     */
    private final ClassValue<Boolean> declaredImmutable = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return isDeclaredImmutable(type, new HashSet<>());
        }
    };

    /**
     * Whether {@code type}'s instances cannot change: a final immutable JDK type, an enum, an {@code @Immutable}
     * type, or a record each of whose components is declared of such a type ({@code visiting} holds the
     * records being decided, so a record that refers to itself is decided by its other components).
     */
    private boolean isDeclaredImmutable(Class<?> type, Set<Class<?>> visiting) {
        if (type.isPrimitive()
                || type == String.class
                || type == Boolean.class
                || type == Integer.class
                || type == Long.class
                || type == Double.class
                || type == Float.class
                || type == Short.class
                || type == Byte.class
                || type == Character.class
                || type == BigDecimal.class
                || type == BigInteger.class
                || type == UUID.class
                || type == Quantity.class
                || type.isEnum()
                || immutable.get(type)
                || (TemporalAccessor.class.isAssignableFrom(type)
                        && Modifier.isFinal(type.getModifiers())
                        && type.getName().startsWith("java.time."))) {
            return true;
        }
        if (!type.isRecord()) {
            return false;
        }
        if (!visiting.add(type)) {
            return true;
        }
        for (RecordComponent c : type.getRecordComponents()) {
            if (!isDeclaredImmutable(c.getType(), visiting)) {
                return false;
            }
        }
        return true;
    }

    /** The copier for {@code type}: the identity when its objects are immutable. */
    <T> UnaryOperator<T> copier(Class<T> type) {
        if (type == DynamicObject.class || declaredImmutable.get(type)) {
            return UnaryOperator.identity();
        }
        return object -> type.cast(copy(object));
    }

    /** A deep copy of any value a record component may hold. */
    Object copy(Object value) {
        if (value == null || isImmutable(value)) {
            return value;
        }
        if (value instanceof Record r) {
            RecordShape shape = shapes.computeIfAbsent(r.getClass(), RecordShape::of);
            return shape.accessible() ? shape.copy(r, this) : KubeJson.mapper().convertValue(r, r.getClass());
        }
        if (value instanceof JsonNode node) {
            return node.deepCopy();
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object e : list) {
                out.add(copy(e));
            }
            return out;
        }
        if (value instanceof Set<?> set) {
            Set<Object> out = new LinkedHashSet<>();
            for (Object e : set) {
                out.add(copy(e));
            }
            return out;
        }
        if (value instanceof Collection<?> other) {
            List<Object> out = new ArrayList<>(other.size());
            for (Object e : other) {
                out.add(copy(e));
            }
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(copy(e.getKey()), copy(e.getValue()));
            }
            return out;
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        BeanShape bean =
                value.getClass().isArray() ? BeanShape.NONE : beans.computeIfAbsent(value.getClass(), BeanShape::of);
        return bean.accessible() ? bean.copy(value, this) : KubeJson.mapper().convertValue(value, value.getClass());
    }

    /**
     * Whether {@code value} cannot change: its class declares so ({@link #declaredImmutable}), or it is a
     * value whose runtime class may be a subclass of an immutable type (an enum constant with a body, a
     * {@link BigDecimal} or {@link BigInteger}), or a {@link DynamicObject}.
     */
    private boolean isImmutable(Object value) {
        return declaredImmutable.get(value.getClass())
                || value instanceof Enum<?>
                || value instanceof BigDecimal
                || value instanceof BigInteger
                || value instanceof DynamicObject;
    }

    /**
     * A class's instance fields (its own and its superclasses'), each read and written through its
     * public getter and setter where the class has them — called through generated lambdas, which
     * the JIT compiles as plain calls — else through a field handle; and its no-argument
     * constructor. {@link #NONE} for a class not copied so.
     */
    private record BeanShape(
            Supplier<Object> constructor, Function<Object, Object>[] getters, BiConsumer<Object, Object>[] setters) {

        static final BeanShape NONE = new BeanShape(null, null, null);

        @SuppressWarnings("unchecked")
        static BeanShape of(Class<?> type) {
            String name = type.getName();
            if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")) {
                return NONE;
            }
            List<Function<Object, Object>> getters = new ArrayList<>();
            List<BiConsumer<Object, Object>> setters = new ArrayList<>();
            try {
                Copies.class.getModule().addReads(type.getModule());
                MethodHandles.Lookup own = MethodHandles.lookup();
                Supplier<Object> constructor = constructor(own, type);
                for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                    MethodHandles.Lookup in = MethodHandles.privateLookupIn(c, own);
                    for (Field f : c.getDeclaredFields()) {
                        int mods = f.getModifiers();
                        if (Modifier.isStatic(mods)) {
                            continue;
                        }
                        if (Modifier.isFinal(mods)) {
                            return NONE; // a final field cannot be set after construction
                        }
                        Method getter = accessor(c, f, "get", 0);
                        Method setter = accessor(c, f, "set", 1);
                        if (getter != null && setter != null && !f.getType().isPrimitive()) {
                            getters.add(lambda(
                                    own, Function.class, "apply", getter, MethodType.methodType(f.getType(), c)));
                            setters.add(lambda(
                                    own,
                                    BiConsumer.class,
                                    "accept",
                                    setter,
                                    MethodType.methodType(void.class, c, f.getType())));
                        } else {
                            MethodHandle get =
                                    in.unreflectGetter(f).asType(MethodType.methodType(Object.class, Object.class));
                            MethodHandle set = in.unreflectSetter(f)
                                    .asType(MethodType.methodType(void.class, Object.class, Object.class));
                            getters.add(bean -> {
                                try {
                                    return (Object) get.invokeExact(bean);
                                } catch (Throwable t) {
                                    throw unchecked(t);
                                }
                            });
                            setters.add((bean, value) -> {
                                try {
                                    set.invokeExact(bean, value);
                                } catch (Throwable t) {
                                    throw unchecked(t);
                                }
                            });
                        }
                    }
                }
                return new BeanShape(constructor, getters.toArray(Function[]::new), setters.toArray(BiConsumer[]::new));
            } catch (Throwable e) { // LambdaConversionException, IllegalAccessException, missing constructor ...
                return NONE;
            }
        }

        /** The public {@code getX} (or {@code isX}) / {@code setX} of field x, declared for its type; null if none. */
        private static Method accessor(Class<?> c, Field f, String prefix, int params) {
            String field = f.getName().startsWith("_") ? f.getName().substring(1) : f.getName();
            if (field.isEmpty()) {
                return null;
            }
            String suffix = Character.toUpperCase(field.charAt(0)) + field.substring(1);
            for (String candidate : params == 0 ? List.of("get" + suffix, "is" + suffix) : List.of("set" + suffix)) {
                try {
                    Method m = params == 0 ? c.getMethod(candidate) : c.getMethod(candidate, f.getType());
                    if (Modifier.isPublic(m.getDeclaringClass().getModifiers())
                            && (params == 1 || m.getReturnType() == f.getType())) {
                        return m;
                    }
                } catch (NoSuchMethodException e) {
                    // try the next name
                }
            }
            return null;
        }

        private static <I> I lambda(
                MethodHandles.Lookup own, Class<I> iface, String method, Method target, MethodType instantiated)
                throws Throwable {
            MethodHandle impl = own.unreflect(target);
            MethodType erased = iface == Function.class
                    ? MethodType.methodType(Object.class, Object.class)
                    : MethodType.methodType(void.class, Object.class, Object.class);
            return iface.cast(
                    LambdaMetafactory.metafactory(own, method, MethodType.methodType(iface), erased, impl, instantiated)
                            .getTarget()
                            .invoke());
        }

        /** The public no-argument constructor as a generated lambda, else whatever one there is as a handle. */
        @SuppressWarnings("unchecked")
        private static Supplier<Object> constructor(MethodHandles.Lookup own, Class<?> type) throws Throwable {
            try {
                MethodHandle impl = own.findConstructor(type, MethodType.methodType(void.class));
                return (Supplier<Object>) LambdaMetafactory.metafactory(
                                own,
                                "get",
                                MethodType.methodType(Supplier.class),
                                MethodType.methodType(Object.class),
                                impl,
                                MethodType.methodType(type))
                        .getTarget()
                        .invoke();
            } catch (IllegalAccessException | LambdaConversionException e) {
                MethodHandle h = MethodHandles.privateLookupIn(type, own)
                        .findConstructor(type, MethodType.methodType(void.class))
                        .asType(MethodType.methodType(Object.class));
                return () -> {
                    try {
                        return (Object) h.invokeExact();
                    } catch (Throwable t) {
                        throw unchecked(t);
                    }
                };
            }
        }

        private static RuntimeException unchecked(Throwable t) {
            if (t instanceof RuntimeException r) {
                return r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            return new IllegalStateException(t);
        }

        boolean accessible() {
            return constructor != null;
        }

        Object copy(Object bean, Copies copies) {
            Object out = constructor.get();
            for (int i = 0; i < getters.length; i++) {
                setters[i].accept(out, copies.copy(getters[i].apply(bean)));
            }
            return out;
        }
    }

    /**
     * A record class's accessors and canonical constructor, as handles on {@code Object}s; both null
     * when they are not public to this module (the record is then copied through Jackson).
     */
    private record RecordShape(MethodHandle[] accessors, MethodHandle constructor) {

        private static final MethodType ACCESSOR = MethodType.methodType(Object.class, Object.class);

        static RecordShape of(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle[] accessors = new MethodHandle[components.length];
            Class<?>[] types = new Class<?>[components.length];
            try {
                for (int i = 0; i < components.length; i++) {
                    accessors[i] = lookup.unreflect(components[i].getAccessor()).asType(ACCESSOR);
                    types[i] = components[i].getType();
                }
                MethodHandle constructor = lookup.findConstructor(type, MethodType.methodType(void.class, types))
                        .asType(MethodType.methodType(Object.class, types).generic())
                        .asSpreader(Object[].class, components.length);
                return new RecordShape(accessors, constructor);
            } catch (ReflectiveOperationException | IllegalArgumentException e) {
                return new RecordShape(null, null);
            }
        }

        boolean accessible() {
            return constructor != null;
        }

        Object copy(Record r, Copies copies) {
            Object[] values = new Object[accessors.length];
            try {
                for (int i = 0; i < accessors.length; i++) {
                    values[i] = copies.copy((Object) accessors[i].invokeExact((Object) r));
                }
                return (Object) constructor.invokeExact(values);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("cannot copy " + r.getClass().getName() + ": " + t, t);
            }
        }
    }
}
