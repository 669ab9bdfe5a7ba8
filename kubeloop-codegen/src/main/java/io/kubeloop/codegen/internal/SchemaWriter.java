package io.kubeloop.codegen.internal;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubeloop.api.IntOrString;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.crd.Default;
import io.kubeloop.api.crd.Description;
import io.kubeloop.api.crd.EmbeddedResource;
import io.kubeloop.api.crd.Format;
import io.kubeloop.api.crd.ListMapKeys;
import io.kubeloop.api.crd.ListType;
import io.kubeloop.api.crd.MapType;
import io.kubeloop.api.crd.MaxItems;
import io.kubeloop.api.crd.MaxLength;
import io.kubeloop.api.crd.MaxProperties;
import io.kubeloop.api.crd.Maximum;
import io.kubeloop.api.crd.MinItems;
import io.kubeloop.api.crd.MinLength;
import io.kubeloop.api.crd.MinProperties;
import io.kubeloop.api.crd.Minimum;
import io.kubeloop.api.crd.MultipleOf;
import io.kubeloop.api.crd.NullAllowed;
import io.kubeloop.api.crd.Pattern;
import io.kubeloop.api.crd.PreserveUnknownFields;
import io.kubeloop.api.crd.Required;
import io.kubeloop.api.crd.SchemaExtra;
import io.kubeloop.api.crd.Validation;
import io.kubeloop.api.crd.Validations;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.codegen.CodegenException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the OpenAPI v3 (structural) schema of a Java type, reading kubeloop's schema annotations.
 *
 * <p>Mapping: {@code String} → string; enums → string with {@code enum} (Jackson's names);
 * {@code Integer}/{@code int} → integer, format int32; {@code Long}, {@code Short}, {@code Byte},
 * {@code BigInteger} → integer; floating types and {@code BigDecimal} → number; {@code Boolean} →
 * boolean; {@code Instant} and other date-times → string, format date-time; {@code byte[]} →
 * string, format byte; {@link IntOrString} → {@code x-kubernetes-int-or-string}; {@link Quantity} → an
 * integer or a string of the quantity syntax ({@code anyOf}, {@code pattern} and
 * {@code x-kubernetes-int-or-string}, as controller-gen writes {@code resource.Quantity}); {@code JsonNode}
 * and {@code Object} → any JSON ({@code x-kubernetes-preserve-unknown-fields}); {@code ObjectNode}
 * and {@link ObjectMeta} → object; lists, sets and arrays → array; {@code Map<String, V>} →
 * object with {@code additionalProperties}; records and other classes → object with a property
 * per record component or field (Jackson's names, {@code @JsonIgnore} skipped; a
 * {@code @JsonAnySetter} map means unknown fields are kept). A type that contains itself is an
 * error: structural schemas cannot recurse.
 *
 * <p>Not thread-safe: one instance per generation.
 */
public final class SchemaWriter {

    /** The syntax of a quantity, as controller-gen writes it into CRDs. */
    static final String QUANTITY_PATTERN =
            "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?"
                    + "(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Deque<Class<?>> path = new ArrayDeque<>();

    /**
     * The {@code openAPIV3Schema} of a kind: an object with {@code apiVersion}, {@code kind} and
     * {@code metadata}, then the type's own properties.
     *
     * @param kind a record or class implementing {@link KubernetesObject}
     * @return a new schema tree
     */
    public ObjectNode rootSchema(Class<?> kind) {
        return objectSchema(kind, true);
    }

    /**
     * The schema of {@code type} with the annotations found on {@code annotated} (a property's
     * declaration or a type argument) applied.
     */
    private ObjectNode schemaOf(Type type, AnnotatedType annotatedType, List<Annotation> annotations) {
        ObjectNode schema = baseSchema(type, annotatedType);
        applyAnnotations(schema, annotations);
        return schema;
    }

    private ObjectNode baseSchema(Type type, AnnotatedType annotatedType) {
        Class<?> raw = rawClass(type);
        ObjectNode schema = NODES.objectNode();
        if (raw == String.class || raw == char.class || raw == Character.class) {
            schema.put("type", "string");
        } else if (raw == int.class || raw == Integer.class) {
            schema.put("type", "integer");
            schema.put("format", "int32");
        } else if (raw == long.class
                || raw == Long.class
                || raw == short.class
                || raw == Short.class
                || raw == byte.class
                || raw == Byte.class
                || raw == BigInteger.class) {
            schema.put("type", "integer");
        } else if (raw == double.class
                || raw == Double.class
                || raw == float.class
                || raw == Float.class
                || raw == BigDecimal.class) {
            schema.put("type", "number");
        } else if (raw == boolean.class || raw == Boolean.class) {
            schema.put("type", "boolean");
        } else if (raw == Instant.class || raw == OffsetDateTime.class || raw == ZonedDateTime.class) {
            schema.put("type", "string");
            schema.put("format", "date-time");
        } else if (raw == LocalDate.class) {
            schema.put("type", "string");
            schema.put("format", "date");
        } else if (raw == byte[].class) {
            schema.put("type", "string");
            schema.put("format", "byte");
        } else if (raw == IntOrString.class) {
            schema.put("x-kubernetes-int-or-string", true);
        } else if (raw == Quantity.class) {
            // as controller-gen writes resource.Quantity: a number or a string of Kubernetes' quantity syntax
            ArrayNode anyOf = schema.putArray("anyOf");
            anyOf.addObject().put("type", "integer");
            anyOf.addObject().put("type", "string");
            schema.put("pattern", QUANTITY_PATTERN);
            schema.put("x-kubernetes-int-or-string", true);
        } else if (raw == ObjectNode.class || raw == ObjectMeta.class) {
            schema.put("type", "object");
        } else if (JsonNode.class.isAssignableFrom(raw) || raw == Object.class) {
            schema.put("x-kubernetes-preserve-unknown-fields", true);
        } else if (raw.isEnum()) {
            schema.put("type", "string");
            ArrayNode values = schema.putArray("enum");
            for (Object constant : raw.getEnumConstants()) {
                values.add(enumName((Enum<?>) constant));
            }
        } else if (raw.isArray()) {
            schema.put("type", "array");
            schema.set("items", schemaOf(raw.getComponentType(), null, List.of()));
        } else if (Collection.class.isAssignableFrom(raw)) {
            schema.put("type", "array");
            schema.set("items", typeArgumentSchema(type, annotatedType, 0, raw));
        } else if (Map.class.isAssignableFrom(raw)) {
            Type keyType = typeArgument(type, 0, raw);
            if (keyType != String.class) {
                throw new CodegenException(
                        "map keys must be strings in a CRD schema: " + type.getTypeName() + " in " + where());
            }
            schema.put("type", "object");
            schema.set("additionalProperties", typeArgumentSchema(type, annotatedType, 1, raw));
        } else if (raw.isPrimitive() || raw.getName().startsWith("java.")) {
            throw new CodegenException("no CRD schema for " + raw.getName() + " in " + where());
        } else {
            return objectSchema(raw, false);
        }
        return schema;
    }

    private ObjectNode typeArgumentSchema(Type type, AnnotatedType annotatedType, int index, Class<?> raw) {
        Type argument = typeArgument(type, index, raw);
        AnnotatedType annotatedArgument = null;
        if (annotatedType instanceof AnnotatedParameterizedType parameterized
                && parameterized.getAnnotatedActualTypeArguments().length > index) {
            annotatedArgument = parameterized.getAnnotatedActualTypeArguments()[index];
        }
        List<Annotation> annotations =
                annotatedArgument == null ? List.of() : List.of(annotatedArgument.getAnnotations());
        return schemaOf(argument, annotatedArgument, annotations);
    }

    private Type typeArgument(Type type, int index, Class<?> raw) {
        if (type instanceof ParameterizedType parameterized) {
            Type argument = parameterized.getActualTypeArguments()[index];
            if (argument instanceof WildcardType wildcard) {
                return wildcard.getUpperBounds()[0];
            }
            return argument;
        }
        throw new CodegenException("raw " + raw.getSimpleName() + " has no element type in " + where());
    }

    /** An object schema for a record or class: one property per component or field. */
    private ObjectNode objectSchema(Class<?> type, boolean root) {
        if (path.contains(type)) {
            throw new CodegenException("recursive type " + type.getName() + " via " + where()
                    + ": structural schemas cannot recurse; use JsonNode with @PreserveUnknownFields there");
        }
        path.push(type);
        try {
            ObjectNode schema = NODES.objectNode();
            schema.put("type", "object");
            ObjectNode properties = NODES.objectNode();
            ArrayNode required = NODES.arrayNode();
            boolean keepsUnknown = false;
            if (root) {
                properties.set("apiVersion", NODES.objectNode().put("type", "string"));
                properties.set("kind", NODES.objectNode().put("type", "string"));
                properties.set("metadata", NODES.objectNode().put("type", "object"));
            }
            for (Property property : properties(type)) {
                if (property.anySetter()) {
                    keepsUnknown = true;
                    continue;
                }
                if (root && isObjectIdentity(property.name())) {
                    if (has(property.annotations(), Required.class)) {
                        required.add(property.name());
                    }
                    continue;
                }
                List<Annotation> annotations = property.annotations();
                properties.set(property.name(), schemaOf(property.type(), property.annotatedType(), annotations));
                if (has(annotations, Required.class)) {
                    required.add(property.name());
                }
            }
            if (!properties.isEmpty()) {
                schema.set("properties", properties);
            }
            if (!required.isEmpty()) {
                schema.set("required", required);
            }
            if (keepsUnknown) {
                schema.put("x-kubernetes-preserve-unknown-fields", true);
            }
            applyAnnotations(schema, List.of(type.getAnnotations()));
            return schema;
        } finally {
            path.pop();
        }
    }

    private static boolean isObjectIdentity(String name) {
        return name.equals("apiVersion") || name.equals("kind") || name.equals("metadata");
    }

    private record Property(
            String name, Type type, AnnotatedType annotatedType, List<Annotation> annotations, boolean anySetter) {}

    private static List<Property> properties(Class<?> type) {
        List<Property> properties = new ArrayList<>();
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                Field field = declaredField(type, component.getName());
                AnnotatedElement declaration = field != null ? field : component;
                if (declaration.isAnnotationPresent(JsonIgnore.class)) {
                    continue;
                }
                properties.add(new Property(
                        jsonName(declaration, component.getName()),
                        component.getGenericType(),
                        component.getAnnotatedType(),
                        annotations(component, component.getAnnotatedType()),
                        declaration.isAnnotationPresent(JsonAnySetter.class)
                                || component.isAnnotationPresent(JsonAnySetter.class)));
            }
            return properties;
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.addFirst(c);
        }
        for (Class<?> c : hierarchy) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers)
                        || Modifier.isTransient(modifiers)
                        || field.isSynthetic()
                        || field.isAnnotationPresent(JsonIgnore.class)) {
                    continue;
                }
                properties.add(new Property(
                        jsonName(field, field.getName()),
                        field.getGenericType(),
                        field.getAnnotatedType(),
                        annotations(field, field.getAnnotatedType()),
                        field.isAnnotationPresent(JsonAnySetter.class)));
            }
        }
        return properties;
    }

    private static Field declaredField(Class<?> type, String name) {
        try {
            return type.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static String jsonName(AnnotatedElement element, String javaName) {
        JsonProperty property = element.getAnnotation(JsonProperty.class);
        return property != null && !property.value().isEmpty() ? property.value() : javaName;
    }

    /**
     * The declaration's annotations, then those of its type use not already present (an annotation
     * that may go in both places is in both when written on a simple type name).
     */
    private static List<Annotation> annotations(AnnotatedElement declaration, AnnotatedType type) {
        List<Annotation> all = new ArrayList<>(List.of(declaration.getAnnotations()));
        for (Annotation annotation : type.getAnnotations()) {
            if (all.stream().noneMatch(a -> a.annotationType() == annotation.annotationType())) {
                all.add(annotation);
            }
        }
        return all;
    }

    private static boolean has(List<Annotation> annotations, Class<? extends Annotation> type) {
        return annotations.stream().anyMatch(a -> a.annotationType() == type);
    }

    private void applyAnnotations(ObjectNode schema, List<Annotation> annotations) {
        for (Annotation annotation : annotations) {
            switch (annotation) {
                case Description d -> schema.put("description", d.value());
                case NullAllowed n -> schema.put("nullable", true);
                case Format f -> schema.put("format", f.value());
                case Minimum m -> {
                    schema.set("minimum", number(m.value()));
                    if (m.exclusive()) {
                        schema.put("exclusiveMinimum", true);
                    }
                }
                case Maximum m -> {
                    schema.set("maximum", number(m.value()));
                    if (m.exclusive()) {
                        schema.put("exclusiveMaximum", true);
                    }
                }
                case MultipleOf m -> schema.set("multipleOf", number(m.value()));
                case Pattern p -> schema.put("pattern", p.value());
                case MinLength m -> schema.put("minLength", m.value());
                case MaxLength m -> schema.put("maxLength", m.value());
                case MinItems m -> schema.put("minItems", m.value());
                case MaxItems m -> schema.put("maxItems", m.value());
                case MinProperties m -> schema.put("minProperties", m.value());
                case MaxProperties m -> schema.put("maxProperties", m.value());
                case Default d -> schema.set("default", json(d.value(), "@Default"));
                case ListType l -> schema.put("x-kubernetes-list-type", l.value());
                case ListMapKeys k -> {
                    ArrayNode keys = schema.putArray("x-kubernetes-list-map-keys");
                    for (String key : k.value()) {
                        keys.add(key);
                    }
                }
                case MapType m -> schema.put("x-kubernetes-map-type", m.value());
                case PreserveUnknownFields p -> schema.put("x-kubernetes-preserve-unknown-fields", true);
                case EmbeddedResource e -> schema.put("x-kubernetes-embedded-resource", true);
                case Validation v -> addValidation(schema, v);
                case Validations vs -> {
                    for (Validation v : vs.value()) {
                        addValidation(schema, v);
                    }
                }
                case SchemaExtra extra -> {
                    JsonNode node = json(extra.value(), "@SchemaExtra");
                    if (!(node instanceof ObjectNode object)) {
                        throw new CodegenException("@SchemaExtra must be a JSON object in " + where());
                    }
                    schema.setAll(object);
                }
                default -> {
                    // not a schema annotation
                }
            }
        }
    }

    private static void addValidation(ObjectNode schema, Validation v) {
        ArrayNode rules = schema.has("x-kubernetes-validations")
                ? (ArrayNode) schema.get("x-kubernetes-validations")
                : schema.putArray("x-kubernetes-validations");
        ObjectNode rule = rules.addObject();
        rule.put("rule", v.rule());
        if (!v.message().isEmpty()) {
            rule.put("message", v.message());
        }
        if (!v.messageExpression().isEmpty()) {
            rule.put("messageExpression", v.messageExpression());
        }
        if (!v.reason().isEmpty()) {
            rule.put("reason", v.reason());
        }
        if (!v.fieldPath().isEmpty()) {
            rule.put("fieldPath", v.fieldPath());
        }
        if (v.optionalOldSelf()) {
            rule.put("optionalOldSelf", true);
        }
    }

    /** A whole number as an integer node (as CRDs write bounds), anything else as a double. */
    static JsonNode number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return NODES.numberNode((long) value);
        }
        return NODES.numberNode(value);
    }

    private JsonNode json(String text, String annotation) {
        try {
            return KubeJson.mapper().readTree(text);
        } catch (JacksonException e) {
            throw new CodegenException(annotation + " is not JSON (" + text + ") in " + where(), e);
        }
    }

    private String where() {
        return path.isEmpty() ? "the type" : path.peek().getName();
    }

    /** The constant as Jackson writes it (its {@code @JsonProperty} name, which may be empty, or its name). */
    private static String enumName(Enum<?> constant) {
        return KubeJson.mapper().valueToTree(constant).asString();
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof GenericArrayType) {
            return Object[].class;
        }
        throw new CodegenException("no CRD schema for type " + type.getTypeName());
    }
}
