package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.json.KubeJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
import tools.jackson.databind.ser.SerializationContextExt;

/**
 * Derives structural schemas from fabric8's Jackson-annotated model classes (kubernetes-model 8.x)
 * with Jackson 3's own bean introspection, so property names are exactly the JSON names the model
 * reads and writes. Each model class becomes one named definition (the Go name the real server
 * publishes, e.g. {@code io.k8s.api.apps.v1.DeploymentSpec}); recursive types (JSONSchemaProps)
 * share their node. Classes with custom (de)serializers are special: IntOrString is
 * {@code x-kubernetes-int-or-string}, Quantity a string, MicroTime a date-time string, the
 * JSONSchemaProps-or-X unions and {@code JsonNode}/{@code Object} values preserve unknown fields.
 *
 * <p>Not thread-safe: one instance derives one document ({@link Fabric8Definitions}).
 */
final class ModelIntrospector {

    private static final String MODEL = "io.fabric8.kubernetes.api.model";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final Set<String> META_TYPES = Set.of(
            "ObjectMeta",
            "ListMeta",
            "LabelSelector",
            "LabelSelectorRequirement",
            "OwnerReference",
            "ManagedFieldsEntry",
            "FieldsV1",
            "Status",
            "StatusDetails",
            "StatusCause",
            "Condition",
            "DeleteOptions",
            "Preconditions",
            "MicroTime",
            "Time",
            "APIResource",
            "WatchEvent",
            "Patch",
            "TypeMeta",
            "GroupVersionKind",
            "ListOptions",
            "GetOptions",
            "CreateOptions",
            "UpdateOptions",
            "PatchOptions");
    /** Go Time fields, which fabric8 models as plain strings. */
    private static final Set<String> TIME_FIELDS = Set.of(
            "creationTimestamp",
            "deletionTimestamp",
            "lastTransitionTime",
            "lastProbeTime",
            "lastHeartbeatTime",
            "startTime",
            "completionTime",
            "startedAt",
            "finishedAt",
            "lastUpdateTime",
            "firstTimestamp",
            "lastTimestamp",
            "lastScheduleTime",
            "lastSuccessfulTime",
            "time",
            "deprecatedFirstTimestamp",
            "deprecatedLastTimestamp",
            "acquireTime",
            "renewTime",
            "eventTime",
            "lastObservedTime",
            "timeAdded");

    private static final StructuralSchema ANY =
            new StructuralSchema.Builder().preserveUnknownFields(true).build();

    private final SerializationContextExt context = KubeJson.mapper()._serializationContext();
    private final Map<Class<?>, StructuralSchema> byClass = new HashMap<>();
    private final Map<String, StructuralSchema> definitions = new TreeMap<>();

    /** The schema of a model class, a named definition. */
    StructuralSchema schemaOf(Class<?> type) {
        return schemaOf(context.constructType(type), "", "", "");
    }

    /** Every definition reached so far, by name. */
    Map<String, StructuralSchema> definitions() {
        return definitions;
    }

    /** The Go definition name of a fabric8 model class. */
    static String definitionName(Class<?> c) {
        String pkg = c.getPackageName();
        String simple = c.getSimpleName();
        return switch (simple) {
            case "Quantity" -> "io.k8s.apimachinery.pkg.api.resource.Quantity";
            case "IntOrString" -> "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
            default -> {
                if (pkg.equals(MODEL)) {
                    yield META_TYPES.contains(simple) ? META + simple : "io.k8s.api.core.v1." + simple;
                }
                if (pkg.startsWith(MODEL + ".apiextensions.")) {
                    yield "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions."
                            + pkg.substring((MODEL + ".apiextensions.").length()) + "." + simple;
                }
                if (pkg.startsWith(MODEL + ".")) {
                    String rest = pkg.substring(MODEL.length() + 1);
                    if (!rest.matches(".*\\.v\\d+(alpha\\d+|beta\\d+)?$")) {
                        rest = rest + ".v1";
                    }
                    yield "io.k8s.api." + rest + "." + simple;
                }
                yield pkg + "." + simple;
            }
        };
    }

    private StructuralSchema schemaOf(JavaType t, String field, String ownerDefinition, String propertyName) {
        Class<?> raw = t.getRawClass();
        if (t.isCollectionLikeType() || t.isArrayType() && raw != byte[].class) {
            StructuralSchema.Builder b =
                    new StructuralSchema.Builder().type("array").items(schemaOf(t.getContentType(), field, "", ""));
            PatchMetadata.apply(ownerDefinition, propertyName, b);
            return b.build();
        }
        if (t.isMapLikeType()) {
            return new StructuralSchema.Builder()
                    .type("object")
                    .additionalProperties(schemaOf(t.getContentType(), field, "", ""))
                    .build();
        }
        if (raw == String.class) {
            return new StructuralSchema.Builder()
                    .type("string")
                    .format(TIME_FIELDS.contains(field) ? "date-time" : "")
                    .build();
        }
        if (raw == byte[].class) {
            return new StructuralSchema.Builder().type("string").format("byte").build();
        }
        if (raw == Integer.class || raw == int.class || raw == Short.class || raw == short.class) {
            return new StructuralSchema.Builder()
                    .type("integer")
                    .format("int32")
                    .build();
        }
        if (raw == Long.class || raw == long.class || raw == BigInteger.class) {
            return new StructuralSchema.Builder()
                    .type("integer")
                    .format("int64")
                    .build();
        }
        if (raw == Double.class
                || raw == double.class
                || raw == Float.class
                || raw == float.class
                || raw == BigDecimal.class) {
            return new StructuralSchema.Builder()
                    .type("number")
                    .format("double")
                    .build();
        }
        if (raw == Boolean.class || raw == boolean.class) {
            return new StructuralSchema.Builder().type("boolean").build();
        }
        if (raw == Object.class || JsonNode.class.isAssignableFrom(raw) || raw.isInterface()) {
            return ANY;
        }
        StructuralSchema known = byClass.get(raw);
        if (known != null) {
            return known;
        }
        return bean(raw, t);
    }

    private StructuralSchema bean(Class<?> raw, JavaType t) {
        String name = definitionName(raw);
        StructuralSchema.Builder b = new StructuralSchema.Builder().definitionName(name);
        String simple = raw.getSimpleName();
        if (simple.equals("IntOrString")) {
            b.type("string").format("int-or-string").intOrString(true);
        } else if (simple.equals("Quantity")) {
            b.type("string");
        } else if (simple.equals("MicroTime") || simple.equals("Time")) {
            b.type("string").format("date-time");
        } else if (simple.equals("Duration")) {
            b.type("string");
        } else if (hasCustomSerialization(raw)) {
            b.preserveUnknownFields(true);
        } else {
            b.type("object");
        }
        StructuralSchema node = b.build();
        byClass.put(raw, node);
        definitions.put(name, node);
        if (!"object".equals(node.type())) {
            return node;
        }
        BeanDescription description = context.introspectBeanDescription(t);
        List<BeanPropertyDefinition> props = description.findProperties();
        for (BeanPropertyDefinition p : props) {
            if (p.getPrimaryType() == null || isUnknownFieldsMap(p)) {
                continue;
            }
            // the builder's map backs the published node, so recursive types see themselves
            b.property(p.getName(), schemaOf(p.getPrimaryType(), p.getName(), name, p.getName()));
        }
        if (b.properties.isEmpty()) {
            // FieldsV1 and friends: free-form objects
            StructuralSchema free = new StructuralSchema.Builder()
                    .type("object")
                    .preserveUnknownFields(true)
                    .definitionName(name)
                    .build();
            byClass.put(raw, free);
            definitions.put(name, free);
            return free;
        }
        return node;
    }

    /**
     * fabric8's map of unknown fields ({@code additionalProperties}, a {@code Map}), which is no
     * JSON property; JSONSchemaProps' own {@code additionalProperties} (a schema or a boolean) is one.
     */
    private static boolean isUnknownFieldsMap(BeanPropertyDefinition p) {
        return p.getName().equals("additionalProperties") && p.getPrimaryType().isMapLikeType();
    }

    private static boolean hasCustomSerialization(Class<?> raw) {
        JsonSerialize ser = raw.getAnnotation(JsonSerialize.class);
        if (ser != null && ser.using() != tools.jackson.databind.ValueSerializer.None.class) {
            return true;
        }
        JsonDeserialize de = raw.getAnnotation(JsonDeserialize.class);
        return de != null && de.using() != tools.jackson.databind.ValueDeserializer.None.class;
    }

    /** Definitions sorted by name, for callers that publish them. */
    static Map<String, StructuralSchema> sorted(Map<String, StructuralSchema> defs) {
        return new TreeMap<>(defs);
    }
}
