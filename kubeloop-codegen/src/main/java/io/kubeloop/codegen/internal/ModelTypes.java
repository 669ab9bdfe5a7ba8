package io.kubeloop.codegen.internal;

import io.kubeloop.codegen.CodegenException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Maps the schemas of Kubernetes' OpenAPI definitions to Java types for one compilation unit of the
 * built-in models: scalars to boxed types, {@code date-time} strings to {@code Instant}, Kubernetes'
 * apimachinery types to kubeloop's ({@code ObjectMeta}, {@code Quantity}, {@code IntOrString}),
 * free-form values ({@code RawExtension}, {@code JSON}…) to untyped {@code Object} trees, arrays and
 * maps to {@code List} and {@code Map}, and references to other definitions to their records, imported
 * when no other type of the unit has their simple name.
 *
 * <p>Not thread-safe: one instance per compilation unit, sharing its {@link ImportSet}.
 */
final class ModelTypes {

    /** Definitions kubeloop models with its own types, by definition name: the type's name and reader. */
    private static final Map<String, String[]> OWN_TYPES = Map.of(
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", new String[] {"ObjectMeta", "%s.objectMeta()"},
            "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
                    new String[] {"OwnerReference", "%s.value(OwnerReference.class)"},
            "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry",
                    new String[] {"ManagedFieldsEntry", "%s.value(ManagedFieldsEntry.class)"},
            "io.k8s.apimachinery.pkg.api.resource.Quantity", new String[] {"Quantity", "%s.quantity()"},
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString", new String[] {"IntOrString", "%s.intOrString()"});

    /** The simple names the generated code uses besides the models', which a model's name must not hide. */
    static final Set<String> USED_NAMES = Set.of(
            "ObjectMeta",
            "OwnerReference",
            "ManagedFieldsEntry",
            "Quantity",
            "IntOrString",
            "Instant",
            "List",
            "Map",
            "Consumer",
            "Function",
            "JsonInput",
            "JsonFields",
            "Frozen",
            "Kind",
            "KubernetesObject",
            "JsonProperty",
            "JsonFormat",
            "JsonAnySetter",
            "JsonAnyGetter",
            "JsonDeserialize",
            "JsonReaders",
            "ArrayList",
            "LinkedHashMap",
            "Builder",
            "String",
            "Integer",
            "Long",
            "Double",
            "Boolean",
            "Object");

    private final ImportSet imports;
    private final String basePackage;
    private final String unitPackage;
    private final Set<String> packageNames;
    private final Map<String, String> importedFrom = new HashMap<>();
    private int lambdas;

    /**
     * @param imports the unit's imports
     * @param basePackage the package the group-version packages go under
     * @param unitPackage the unit's package
     * @param packageNames the simple names of the records of the unit's package
     */
    ModelTypes(ImportSet imports, String basePackage, String unitPackage, Set<String> packageNames) {
        this.imports = imports;
        this.basePackage = basePackage;
        this.unitPackage = unitPackage;
        this.packageNames = packageNames;
    }

    /** True when the definition {@code name} is modelled by kubeloop's own type or a Java type, not generated. */
    static boolean notGenerated(String name, JsonNode schema) {
        return OWN_TYPES.containsKey(name)
                || !schema.path("type").asString("").equals("object")
                || (!schema.has("properties") && !isEmptyStruct(name));
    }

    /**
     * Definitions of Go structs with no field, generated as records that keep whatever fields they are given.
     * Other object definitions without properties are free-form ({@code RawExtension}, {@code FieldsV1}).
     */
    private static boolean isEmptyStruct(String name) {
        return name.startsWith("io.k8s.api.") || name.endsWith(".CustomResourceSubresourceStatus");
    }

    /** The Java package of a generated definition: the base package, its group and version. */
    static String packageOf(String basePackage, String definition) {
        String[] parts = definition.split("\\.");
        if (parts.length < 4) {
            throw new CodegenException("no group and version in definition name " + definition);
        }
        return basePackage + "."
                + parts[parts.length - 3].toLowerCase(Locale.ROOT).replace('-', '_') + "." + parts[parts.length - 2];
    }

    /** The simple class name of a generated definition. */
    static String classOf(String definition) {
        return JavaNames.type(definition.substring(definition.lastIndexOf('.') + 1));
    }

    /** The constant naming a record's reader in its package's {@code JsonReaders}: {@code PodSpec} → {@code POD_SPEC}. */
    static String readerConstant(String className) {
        return JavaNames.constant(className);
    }

    /** The type of a property or item schema. */
    ModelType of(JsonNode schema, Map<String, JsonNode> definitions) {
        JsonNode ref = reference(schema);
        if (ref != null) {
            String name = ref.asString().substring(ref.asString().lastIndexOf('/') + 1);
            JsonNode target = definitions.get(name);
            if (target == null) {
                throw new CodegenException("reference to an undefined schema: " + ref.asString());
            }
            return definition(name, target, definitions);
        }
        String type = schema.path("type").asString("");
        String format = schema.path("format").asString("");
        switch (type) {
            case "string" -> {
                if (format.equals("date-time")) {
                    imports.add("java.time.Instant");
                    return ModelType.value("Instant", Read.input("timestamp"));
                }
                return ModelType.value("String", Read.input("string"));
            }
            case "integer" -> {
                return format.equals("int32")
                        ? ModelType.value("Integer", Read.input("int32"))
                        : ModelType.value("Long", Read.input("int64"));
            }
            case "number" -> {
                return ModelType.value("Double", Read.input("float64"));
            }
            case "boolean" -> {
                return ModelType.value("Boolean", Read.input("bool"));
            }
            case "array" -> {
                ModelType item = of(schema.path("items"), definitions);
                imports.add("java.util.List");
                String p = parameter();
                return new ModelType(
                        "List<" + item.text() + ">",
                        "List",
                        Read.lambda(
                                "%s.list(" + item.rawClass() + ".class, "
                                        + item.read().function() + ")",
                                p),
                        ModelType.Shape.LIST,
                        item,
                        null);
            }
            case "object" -> {
                if (schema.path("additionalProperties").isObject()) {
                    ModelType value = of(schema.path("additionalProperties"), definitions);
                    imports.add("java.util.Map");
                    String p = parameter();
                    return new ModelType(
                            "Map<String, " + value.text() + ">",
                            "Map",
                            Read.lambda(
                                    "%s.map(" + value.rawClass() + ".class, "
                                            + value.read().function() + ")",
                                    p),
                            ModelType.Shape.MAP,
                            value,
                            null);
                }
                return untyped();
            }
            default -> {
                return untyped();
            }
        }
    }

    /** A free-form value: maps, lists and scalars as Jackson reads untyped JSON, frozen deeply. */
    private ModelType untyped() {
        return new ModelType(
                "Object",
                "Object",
                Read.lambda("%s.value(Object.class)", parameter()),
                ModelType.Shape.UNTYPED,
                null,
                null);
    }

    private ModelType definition(String name, JsonNode target, Map<String, JsonNode> definitions) {
        String[] own = OWN_TYPES.get(name);
        if (own != null) {
            imports.add(ImportSet.API + own[0]);
            String builder = own[0].equals("ObjectMeta") ? "ObjectMeta" : null;
            return new ModelType(
                    own[0], own[0], Read.lambda(own[1], parameter()), ModelType.Shape.VALUE, null, builder);
        }
        if (name.equals("io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime")) {
            imports.add("java.time.Instant");
            return ModelType.value("Instant", Read.input("timestamp"));
        }
        if (notGenerated(name, target)) {
            return of(target, definitions); // a named scalar (Time) or a free-form value (RawExtension)
        }
        String pkg = packageOf(basePackage, name);
        String simple = classOf(name);
        String text = refer(pkg, simple);
        String readers = pkg.equals(unitPackage) ? "JsonReaders" : pkg + ".JsonReaders";
        String call = readers + "." + readerConstant(simple) + ".readShared(%s)";
        return new ModelType(text, text, Read.lambda(call, parameter()), ModelType.Shape.VALUE, null, text);
    }

    /** The name a unit uses for a generated record: simple when it is in the unit's package or imported. */
    private String refer(String pkg, String simple) {
        if (pkg.equals(unitPackage)) {
            return simple;
        }
        String from = importedFrom.get(simple);
        if ((from == null && !packageNames.contains(simple) && !USED_NAMES.contains(simple)) || pkg.equals(from)) {
            importedFrom.put(simple, pkg);
            imports.add(pkg + "." + simple);
            return simple;
        }
        return pkg + "." + simple;
    }

    /** True when the definition {@code name} is Kubernetes' {@code MicroTime}, written with microseconds. */
    static boolean isMicroTime(JsonNode schema) {
        JsonNode ref = reference(schema);
        return ref != null && ref.asString().endsWith(".meta.v1.MicroTime");
    }

    /** The {@code $ref} of a schema, directly or as the one member of {@code allOf}; null if none. */
    static JsonNode reference(JsonNode schema) {
        if (schema.has("$ref")) {
            return schema.get("$ref");
        }
        JsonNode allOf = schema.path("allOf");
        return allOf.size() == 1 && allOf.get(0).has("$ref") ? allOf.get(0).get("$ref") : null;
    }

    /** A lambda parameter name unique in the unit. */
    private String parameter() {
        return "e" + ++lambdas;
    }
}
