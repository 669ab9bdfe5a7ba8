package io.kubeloop.codegen.internal;

import io.kubeloop.codegen.CodegenException;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the Java source of one served version of one kind: a record for the kind with nested
 * records for nested object schemas and nested enums for string enums, annotated so that
 * {@link SchemaWriter} writes the same schema back (descriptions become Javadoc and are not kept).
 *
 * <p>Not thread-safe: one instance per source file.
 */
public final class ModelWriter {

    /** Schema keys a generated type or annotation represents; any other key goes to {@code @SchemaExtra}. */
    private static final Set<String> MODELLED = Set.of(
            "type",
            "description",
            "properties",
            "required",
            "items",
            "additionalProperties",
            "default",
            "nullable",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "pattern",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "x-kubernetes-list-type",
            "x-kubernetes-list-map-keys",
            "x-kubernetes-map-type",
            "x-kubernetes-embedded-resource",
            "x-kubernetes-validations");

    /**
     * kubectl's record of what a client last applied: not part of the definition, so not carried into the
     * records (a CRD read back from a cluster has it).
     */
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private static final String API = "io.kubeloop.api.";
    private static final String CRD = "io.kubeloop.api.crd.";

    private final Set<String> imports = new TreeSet<>();

    /** A nested type: a record or an enum, with its source lines at its own indentation. */
    private sealed interface TypeDecl permits RecordDecl, EnumDecl {
        String name();
    }

    private record EnumDecl(String name, String javadoc, Map<String, String> constants) implements TypeDecl {}

    private static final class RecordDecl implements TypeDecl {
        final String name;
        final RecordDecl parent;
        final String javadoc;
        final List<Component> components = new ArrayList<>();
        final List<TypeDecl> nested = new ArrayList<>();
        final Set<String> componentNames = new HashSet<>();
        final Set<String> nestedNames = new HashSet<>();
        /**
         * The type names (lower case) the object and enum properties of this record ask for, which the item
         * type of a list property does not take ({@code wantedTypeName}).
         */
        final Set<String> propertyTypeNames = new HashSet<>();

        final List<String> typeAnnotations = new ArrayList<>();
        boolean keepsUnknown;

        RecordDecl(String name, RecordDecl parent, String javadoc) {
            this.name = name;
            this.parent = parent;
            this.javadoc = javadoc;
        }

        @Override
        public String name() {
            return name;
        }

        /**
         * A nested type name not taken here, by an enclosing type, or by a type the code refers to: {@code
         * wanted} ({@code List} → {@code ListValue}, a name the generated code uses); where Java forbids it
         * (an enclosing type has it) or a nested type of this record has it already, prefixed with this
         * record's name ({@code Condition.Status} → {@code Condition.ConditionStatus}, as Go's {@code
         * metav1.ConditionStatus}); a number only when that is taken too.
         */
        String claimNestedName(String wanted) {
            String base = JavaNames.RESERVED_TYPES.contains(wanted) ? wanted + "Value" : wanted;
            String name = base;
            if (!nameFree(name)) {
                base = this.name + base;
                name = base;
            }
            for (int i = 2; !nameFree(name); i++) {
                name = base + i;
            }
            nestedNames.add(name.toLowerCase(Locale.ROOT));
            return name;
        }

        private boolean nameFree(String name) {
            if (nestedNames.contains(name.toLowerCase(Locale.ROOT))) {
                return false;
            }
            for (RecordDecl r = this; r != null; r = r.parent) {
                if (r.name.equals(name)) {
                    return false;
                }
            }
            return true;
        }

        /** A component name not taken (case-insensitively, so the {@code with} methods differ too). */
        String claimComponentName(String wanted) {
            String name = wanted;
            for (int i = 2; componentNames.contains(name.toLowerCase(Locale.ROOT)); i++) {
                name = wanted + i;
            }
            componentNames.add(name.toLowerCase(Locale.ROOT));
            return name;
        }
    }

    /**
     * A record component: its Java and JSON names (no JSON name: the map of unknown properties),
     * annotations, type, description and how the generated reader reads it.
     */
    private record Component(
            String javaName, String jsonName, List<String> annotations, String type, String description, Read read) {}

    /**
     * A Java type for a schema, with the annotations the schema needs beyond what the type says and how
     * the generated reader reads a value of it.
     */
    private record TypeRef(String type, List<String> annotations, Read read) {}

    /**
     * How the generated reader reads one value from a {@code JsonInput}: as a call on a given input
     * variable, and as a {@code Function<JsonInput, T>} (a method reference or a lambda) for the items
     * of lists and the values of maps. Type names are as seen from the record that declares the value.
     */
    private record Read(String call, String function) {

        /** A method of {@code JsonInput} taking no argument ({@code string}, {@code int32}…). */
        static Read input(String method) {
            return new Read("%s." + method + "()", "JsonInput::" + method);
        }

        /** The reader a generated type declares ({@code readJson}). */
        static Read generated(String type) {
            return new Read(type + ".readJson(%s)", type + "::readJson");
        }

        /** A function expression for {@code call}, with a lambda parameter named {@code parameter}. */
        static Read lambda(String call, String parameter) {
            return new Read(call, parameter + " -> " + call.formatted(parameter));
        }

        String on(String input) {
            return call.formatted(input);
        }
    }

    /** Names of the lambda parameters the readers use ({@code e1}, {@code e2}…), unique in the file. */
    private int lambdas;

    /** The nested records, in the order of the kind's {@code READERS} table of their readers. */
    private final List<RecordDecl> readers = new ArrayList<>();

    /**
     * For each object schema that appears more than once in the kind (the same Go type used in several
     * places, as an Argo CD Application's source is in its spec, sync status, history and operations):
     * the depth of its shallowest place. Keyed by {@link #shape}.
     */
    private final Map<String, Integer> shallowest = new HashMap<>();

    /** The record declared for each repeated object schema at its shallowest place, by {@link #shape}. */
    private final Map<String, RecordDecl> byShape = new HashMap<>();

    /** The class name of a kind's record: the kind as a Java identifier. */
    public static String className(String kind) {
        return JavaNames.type(kind);
    }

    /**
     * The source of the kind's record.
     *
     * @param packageName the Java package
     * @param group the API group
     * @param annotations the CRD's {@code metadata.annotations} (missing: none)
     * @param names the CRD's {@code spec.names}
     * @param namespaced whether the scope is {@code Namespaced}
     * @param version the version entry of {@code spec.versions}
     * @return the compilation unit
     */
    public String write(
            String packageName,
            String group,
            JsonNode annotations,
            JsonNode names,
            boolean namespaced,
            JsonNode version) {
        String kind = names.path("kind").asString();
        String className = JavaNames.type(kind);
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        if (!schema.isObject()) {
            throw new CodegenException(
                    "version " + version.path("name").asString() + " of " + kind + " has no schema.openAPIV3Schema");
        }
        RecordDecl root = new RecordDecl(className, null, javadoc(schema, "The " + kind + " kind."));
        root.nestedNames.add(className.toLowerCase(Locale.ROOT));
        root.nestedNames.add("jsonreader");
        root.components.add(new Component(
                "apiVersion", "apiVersion", List.of(), "String", "the kind's API version", Read.input("string")));
        root.components.add(new Component("kind", "kind", List.of(), "String", "the kind", Read.input("string")));
        imports.add(API + "ObjectMeta");
        imports.add(API + "KubernetesObject");
        root.components.add(new Component(
                "metadata",
                "metadata",
                List.of(),
                "ObjectMeta",
                "the object's metadata: name, namespace, labels…",
                Read.input("objectMeta")));
        root.componentNames.addAll(List.of("apiversion", "kind", "metadata"));
        for (JsonNode required : schema.path("required")) {
            for (int i = 0; i < 3; i++) {
                Component c = root.components.get(i);
                if (c.jsonName().equals(required.asString())) {
                    imports.add(CRD + "Required");
                    root.components.set(
                            i,
                            new Component(
                                    c.javaName(),
                                    c.jsonName(),
                                    List.of("@Required"),
                                    c.type(),
                                    c.description(),
                                    c.read()));
                }
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        findShapes(schema, 0, counts);
        counts.forEach((shape, n) -> {
            if (n < 2) {
                shallowest.remove(shape);
            }
        });
        fillRecord(root, schema, Set.of("apiVersion", "kind", "metadata"));
        root.typeAnnotations.addAll(0, kindAnnotations(group, annotations, names, namespaced, version, className));
        root.typeAnnotations.addAll(schemaAnnotations(schema, true));

        StringBuilder body = new StringBuilder();
        String apiVersion = group + "/" + version.path("name").asString();
        writeRecord(body, root, 0, apiVersion, namespaced);
        StringBuilder out = new StringBuilder();
        out.append("package ").append(packageName).append(";\n\n");
        for (String i : imports) {
            out.append("import ").append(i).append(";\n");
        }
        out.append('\n').append(body);
        return out.toString();
    }

    private List<String> kindAnnotations(
            String group,
            JsonNode crdAnnotations,
            JsonNode names,
            boolean namespaced,
            JsonNode version,
            String className) {
        List<String> out = new ArrayList<>();
        imports.add(API + "Kind");
        String kind = names.path("kind").asString();
        StringBuilder k = new StringBuilder("@Kind(group = ")
                .append(literal(group))
                .append(", version = ")
                .append(literal(version.path("name").asString()));
        if (!kind.equals(className)) {
            k.append(", kind = ").append(literal(kind));
        }
        k.append(", plural = ").append(literal(names.path("plural").asString()));
        if (!namespaced) {
            k.append(", namespaced = false");
        }
        out.add(k.append(')').toString());

        List<String> attributes = new ArrayList<>();
        String singular = names.path("singular").asString("");
        if (!singular.isEmpty() && !singular.equals(kind.toLowerCase(Locale.ROOT))) {
            attributes.add("singular = " + literal(singular));
        }
        if (names.path("shortNames").size() > 0) {
            attributes.add("shortNames = " + stringArray(names.path("shortNames")));
        }
        if (names.path("categories").size() > 0) {
            attributes.add("categories = " + stringArray(names.path("categories")));
        }
        List<String> keyValues = new ArrayList<>();
        for (Map.Entry<String, JsonNode> annotation : crdAnnotations.properties()) {
            if (!annotation.getKey().equals(LAST_APPLIED)) {
                keyValues.add(literal(
                        annotation.getKey() + "=" + annotation.getValue().asString("")));
            }
        }
        if (!keyValues.isEmpty()) {
            attributes.add("annotations = "
                    + (keyValues.size() == 1 ? keyValues.getFirst() : "{" + String.join(", ", keyValues) + "}"));
        }
        if (!version.path("served").asBoolean(true)) {
            attributes.add("served = false");
        }
        if (!version.path("storage").asBoolean(true)) {
            attributes.add("storage = false");
        }
        if (version.path("deprecated").asBoolean(false)) {
            attributes.add("deprecated = true");
            if (version.has("deprecationWarning")) {
                attributes.add("deprecationWarning = "
                        + literal(version.path("deprecationWarning").asString()));
            }
        }
        JsonNode subresources = version.path("subresources");
        if (subresources.has("status")) {
            attributes.add("status = true");
        }
        if (subresources.has("scale")) {
            imports.add(CRD + "Scale");
            JsonNode scale = subresources.path("scale");
            StringBuilder s = new StringBuilder("scale = @Scale(specReplicasPath = ")
                    .append(literal(scale.path("specReplicasPath").asString()))
                    .append(", statusReplicasPath = ")
                    .append(literal(scale.path("statusReplicasPath").asString()));
            if (scale.has("labelSelectorPath")) {
                s.append(", labelSelectorPath = ")
                        .append(literal(scale.path("labelSelectorPath").asString()));
            }
            attributes.add(s.append(')').toString());
        }
        if (!attributes.isEmpty()) {
            imports.add(CRD + "CustomResource");
            out.add("@CustomResource(" + String.join(", ", attributes) + ")");
        }
        for (JsonNode column : version.path("additionalPrinterColumns")) {
            imports.add(CRD + "PrinterColumn");
            StringBuilder c = new StringBuilder("@PrinterColumn(name = ")
                    .append(literal(column.path("name").asString()))
                    .append(", type = ")
                    .append(literal(column.path("type").asString()))
                    .append(", jsonPath = ")
                    .append(literal(column.path("jsonPath").asString()));
            if (column.has("description")) {
                c.append(", description = ")
                        .append(literal(column.path("description").asString()));
            }
            if (column.has("format")) {
                c.append(", format = ").append(literal(column.path("format").asString()));
            }
            if (column.path("priority").asInt(0) != 0) {
                c.append(", priority = ").append(column.path("priority").asInt());
            }
            out.add(c.append(')').toString());
        }
        return out;
    }

    /** Adds a component per property of {@code schema} (but {@code skip}) to {@code record}. */
    private void fillRecord(RecordDecl record, JsonNode schema, Set<String> skip) {
        Set<String> required = new HashSet<>();
        for (JsonNode r : schema.path("required")) {
            required.add(r.asString());
        }
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            if (declaresType(property.getValue())) {
                record.propertyTypeNames.add(JavaNames.type(property.getKey()).toLowerCase(Locale.ROOT));
            }
        }
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            String json = property.getKey();
            if (skip.contains(json)) {
                continue;
            }
            JsonNode propertySchema = property.getValue();
            String javaName = record.claimComponentName(JavaNames.property(json));
            TypeRef ref = typeOf(propertySchema, json, record, false);
            List<String> annotations = new ArrayList<>();
            if (!javaName.equals(json)) {
                imports.add("com.fasterxml.jackson.annotation.JsonProperty");
                annotations.add("@JsonProperty(" + literal(json) + ")");
            }
            if (required.contains(json)) {
                imports.add(CRD + "Required");
                annotations.add("@Required");
            }
            annotations.addAll(ref.annotations());
            record.components.add(new Component(
                    javaName,
                    json,
                    annotations,
                    ref.type(),
                    propertySchema.path("description").asString(""),
                    ref.read()));
        }
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            record.keepsUnknown = true;
        }
    }

    /** Whether a property of this schema is of a type named after it: a record or an enum. */
    private static boolean declaresType(JsonNode schema) {
        String type = schema.path("type").asString("");
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return false;
        }
        return (type.equals("object") && schema.path("properties").size() > 0)
                || (type.equals("string") && schema.path("enum").size() > 0 && allStrings(schema.path("enum")));
    }

    /**
     * The name wanted for the type of {@code jsonName}'s value, or of its items when {@code item}: the name as
     * a type, for items its singular ({@code ports} → {@code Port}) unless another property of the record is
     * of a type named so ({@code mirror} beside {@code mirrors}: {@code MirrorsItem}).
     */
    private static String wantedTypeName(RecordDecl owner, String jsonName, boolean item) {
        String name = JavaNames.type(jsonName);
        if (!item) {
            return name;
        }
        String singular = JavaNames.type(JavaNames.singular(jsonName));
        return !singular.equalsIgnoreCase(name) && owner.propertyTypeNames.contains(singular.toLowerCase(Locale.ROOT))
                ? name + "Item"
                : singular;
    }

    /**
     * Counts the object schemas with properties under {@code schema} (at {@code depth}) by {@link #shape},
     * and notes the depth of each one's shallowest place.
     */
    private void findShapes(JsonNode schema, int depth, Map<String, Integer> counts) {
        for (JsonNode property : schema.path("properties")) {
            JsonNode object = property.path("type").asString("").equals("array") ? property.path("items") : property;
            if (object.path("properties").size() > 0
                    && object.path("type").asString("").equals("object")) {
                String shape = shape(object);
                counts.merge(shape, 1, Integer::sum);
                shallowest.merge(shape, depth + 1, Math::min);
            }
            findShapes(object, depth + 1, counts);
        }
    }

    /**
     * What makes two object schemas one record type: everything but their descriptions (which become
     * Javadoc, and which a CRD written from the records does not carry: with them in, generating records
     * from such a CRD would merge types that the first generation kept apart).
     */
    private static String shape(JsonNode schema) {
        ObjectNode copy = (ObjectNode) schema.deepCopy();
        withoutDescriptions(copy);
        return copy.toString();
    }

    /** Removes the descriptions of {@code schema} and of the schemas in it (not properties so named). */
    private static void withoutDescriptions(JsonNode schema) {
        if (!(schema instanceof ObjectNode node)) {
            return;
        }
        node.remove("description");
        for (JsonNode property : node.path("properties")) {
            withoutDescriptions(property);
        }
        withoutDescriptions(node.get("items"));
        withoutDescriptions(node.get("additionalProperties"));
        withoutDescriptions(node.get("not"));
        for (String keyword : List.of("allOf", "anyOf", "oneOf")) {
            for (JsonNode alternative : node.path(keyword)) {
                withoutDescriptions(alternative);
            }
        }
    }

    /** How deep {@code record} is below the kind's record (its children are at 1). */
    private static int depth(RecordDecl record) {
        int depth = 0;
        for (RecordDecl r = record; r.parent != null; r = r.parent) {
            depth++;
        }
        return depth;
    }

    /**
     * The Java type for {@code schema} (declaring nested types in {@code owner}) and the
     * annotations that carry what the type does not.
     */
    private TypeRef typeOf(JsonNode schema, String jsonName, RecordDecl owner, boolean item) {
        String type = schema.path("type").asString("");
        String format = schema.path("format").asString("");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        Set<String> handled = new HashSet<>();
        String javaType;
        Read read;
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            imports.add(API + "IntOrString");
            javaType = "IntOrString";
            read = byJackson(javaType);
            handled.add("x-kubernetes-int-or-string");
        } else if (type.isEmpty() && !schema.has("properties")) {
            if (preserve) {
                imports.add("tools.jackson.databind.JsonNode");
                javaType = "JsonNode";
                handled.add("x-kubernetes-preserve-unknown-fields");
            } else {
                javaType = "Object";
            }
            read = byJackson(javaType);
        } else if (type.equals("object") || type.isEmpty()) {
            if (schema.path("properties").size() > 0) {
                if (type.isEmpty()) {
                    throw new CodegenException("property " + jsonName + " has properties but no type: not structural");
                }
                String key = type.equals("object") ? shape(schema) : null;
                String shape = key != null && shallowest.containsKey(key) ? key : null;
                RecordDecl same = shape == null ? null : byShape.get(shape);
                int index;
                if (same != null) {
                    // the same schema as a record declared at its shallowest place: that record
                    index = readers.indexOf(same);
                    javaType = qualified(same);
                } else {
                    String name = owner.claimNestedName(wantedTypeName(owner, jsonName, item));
                    RecordDecl nested = new RecordDecl(name, owner, javadoc(schema, null));
                    owner.nested.add(nested);
                    index = readers.size();
                    readers.add(nested);
                    fillRecord(nested, schema, Set.of());
                    if (shape != null && depth(nested) == shallowest.get(shape)) {
                        byShape.putIfAbsent(shape, nested);
                    }
                    javaType = name;
                }
                read = Read.lambda("%s.sharedRecord(READERS, " + index + ")", parameter());
                handled.add("x-kubernetes-preserve-unknown-fields");
            } else if (schema.path("additionalProperties").isObject()) {
                imports.add("java.util.Map");
                TypeRef value = typeOf(schema.path("additionalProperties"), jsonName + "Value", owner, false);
                javaType = "Map<String, " + typeArgument(value) + ">";
                read = Read.lambda(
                        "%s.map(" + rawType(value.type()) + ".class, "
                                + value.read().function() + ")",
                        parameter());
            } else {
                imports.add("tools.jackson.databind.node.ObjectNode");
                javaType = "ObjectNode";
                read = byJackson(javaType);
            }
        } else if (type.equals("array")) {
            imports.add("java.util.List");
            if (schema.path("items").isObject()) {
                TypeRef itemType = typeOf(schema.path("items"), jsonName, owner, true);
                javaType = "List<" + typeArgument(itemType) + ">";
                read = Read.lambda(
                        "%s.list(" + rawType(itemType.type()) + ".class, "
                                + itemType.read().function() + ")",
                        parameter());
            } else {
                javaType = "List<Object>";
                read = Read.lambda(
                        "%s.list(Object.class, " + byJackson("Object").function() + ")", parameter());
            }
        } else if (type.equals("string")) {
            JsonNode values = schema.path("enum");
            if (values.isArray() && values.size() > 0 && allStrings(values)) {
                String name = owner.claimNestedName(wantedTypeName(owner, jsonName, item));
                Map<String, String> constants = new LinkedHashMap<>();
                Set<String> used = new HashSet<>();
                for (JsonNode v : values) {
                    String constant = JavaNames.constant(v.asString());
                    String unique = constant;
                    for (int i = 2; !used.add(unique); i++) {
                        unique = constant + "_" + i;
                    }
                    constants.put(unique, v.asString());
                }
                owner.nested.add(new EnumDecl(name, javadoc(schema, null), constants));
                javaType = name;
                read = Read.generated(name);
                handled.add("enum");
            } else if (format.equals("date-time")) {
                imports.add("java.time.Instant");
                javaType = "Instant";
                handled.add("format");
                read = Read.input("timestamp");
            } else {
                javaType = "String";
                read = Read.input("string");
            }
        } else if (type.equals("integer")) {
            if (format.equals("int32")) {
                javaType = "Integer";
                handled.add("format");
                read = Read.input("int32");
            } else {
                javaType = "Long";
                read = Read.input("int64");
            }
        } else if (type.equals("number")) {
            javaType = "Double";
            read = Read.input("float64");
        } else if (type.equals("boolean")) {
            javaType = "Boolean";
            read = Read.input("bool");
        } else {
            throw new CodegenException("property " + jsonName + " has an unknown type: " + type);
        }
        List<String> annotations = new ArrayList<>();
        if (!format.isEmpty() && !handled.contains("format")) {
            imports.add(CRD + "Format");
            annotations.add("@Format(" + literal(format) + ")");
        }
        if (preserve && !handled.contains("x-kubernetes-preserve-unknown-fields")) {
            imports.add(CRD + "PreserveUnknownFields");
            annotations.add("@PreserveUnknownFields");
        }
        annotations.addAll(schemaAnnotations(schema, false));
        ObjectNode extra = schema.deepCopy() instanceof ObjectNode copy ? copy : null;
        if (extra != null) {
            extra.remove(MODELLED);
            extra.remove(handled);
            extra.remove(List.of("format", "x-kubernetes-preserve-unknown-fields"));
            if (schema.path("properties").isObject()
                    && schema.path("properties").isEmpty()) {
                extra.putObject("properties"); // an empty "properties" is kept as written
            }
            if (!extra.isEmpty()) {
                imports.add(CRD + "SchemaExtra");
                annotations.add("@SchemaExtra(" + literal(extra.toString()) + ")");
            }
        }
        return new TypeRef(javaType, annotations, read);
    }

    /** A value the generated reader leaves to Jackson's deserializer of {@code type}. */
    private Read byJackson(String type) {
        return Read.lambda("%s.value(" + type + ".class)", parameter());
    }

    /** A fresh lambda parameter name. */
    private String parameter() {
        return "e" + ++lambdas;
    }

    /** The class literal's name for a type: no type-use annotations, no type arguments. */
    private static String rawType(String type) {
        String erased = erase(type);
        int generic = erased.indexOf('<');
        return generic < 0 ? erased : erased.substring(0, generic);
    }

    private static String typeArgument(TypeRef ref) {
        return annotate(ref.annotations(), ref.type());
    }

    /**
     * {@code type} with the type annotations {@code annotations}: in front of it, or, for a nested type
     * named through the types that enclose it ({@code Application.Spec.Source}), in front of its last
     * part, where Java takes a type annotation of such a name ({@code Application.Spec.@Required Source}).
     */
    private static String annotate(List<String> annotations, String type) {
        if (annotations.isEmpty()) {
            return type;
        }
        int generic = type.indexOf('<');
        int dot = type.lastIndexOf('.', generic < 0 ? type.length() : generic);
        String joined = String.join(" ", annotations);
        return dot < 0 ? joined + " " + type : type.substring(0, dot + 1) + joined + " " + type.substring(dot + 1);
    }

    private static boolean allStrings(JsonNode values) {
        for (JsonNode v : values) {
            if (!v.isString()) {
                return false;
            }
        }
        return true;
    }

    /** Annotations for the modelled validation and merge keys of {@code schema}. */
    private List<String> schemaAnnotations(JsonNode schema, boolean root) {
        List<String> out = new ArrayList<>();
        if (schema.path("nullable").asBoolean(false)) {
            out.add(annotation("NullAllowed", null));
        }
        bound(out, schema, "minimum", "exclusiveMinimum", "Minimum");
        bound(out, schema, "maximum", "exclusiveMaximum", "Maximum");
        if (schema.has("multipleOf")) {
            out.add(annotation("MultipleOf", number(schema.get("multipleOf"))));
        }
        if (schema.has("pattern")) {
            out.add(annotation("Pattern", literal(schema.get("pattern").asString())));
        }
        for (String limit :
                List.of("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")) {
            if (schema.has(limit)) {
                out.add(annotation(
                        JavaNames.capitalize(limit), schema.get(limit).asLong() + ""));
            }
        }
        if (schema.has("default")) {
            out.add(annotation("Default", literal(schema.get("default").toString())));
        }
        if (schema.has("x-kubernetes-list-type")) {
            out.add(annotation(
                    "ListType", literal(schema.get("x-kubernetes-list-type").asString())));
        }
        if (schema.has("x-kubernetes-list-map-keys")) {
            out.add(annotation("ListMapKeys", stringArray(schema.get("x-kubernetes-list-map-keys"))));
        }
        if (schema.has("x-kubernetes-map-type")) {
            out.add(annotation(
                    "MapType", literal(schema.get("x-kubernetes-map-type").asString())));
        }
        if (schema.path("x-kubernetes-embedded-resource").asBoolean(false)) {
            out.add(annotation("EmbeddedResource", null));
        }
        for (JsonNode rule : schema.path("x-kubernetes-validations")) {
            List<String> attributes = new ArrayList<>();
            attributes.add("rule = " + literal(rule.path("rule").asString()));
            for (String key : List.of("message", "messageExpression", "reason", "fieldPath")) {
                if (rule.has(key)) {
                    attributes.add(key + " = " + literal(rule.path(key).asString()));
                }
            }
            if (rule.path("optionalOldSelf").asBoolean(false)) {
                attributes.add("optionalOldSelf = true");
            }
            out.add(annotation("Validation", String.join(", ", attributes)));
        }
        if (root) {
            ObjectNode extra = (ObjectNode) schema.deepCopy();
            extra.remove(MODELLED);
            extra.remove("x-kubernetes-preserve-unknown-fields");
            if (!extra.isEmpty()) {
                out.add(annotation("SchemaExtra", literal(extra.toString())));
            }
        }
        return out;
    }

    private void bound(List<String> out, JsonNode schema, String key, String exclusiveKey, String annotation) {
        if (schema.has(key)) {
            String value = number(schema.get(key));
            out.add(
                    schema.path(exclusiveKey).asBoolean(false)
                            ? annotation(annotation, "value = " + value + ", exclusive = true")
                            : annotation(annotation, value));
        }
    }

    private String annotation(String name, String arguments) {
        imports.add(CRD + name);
        return arguments == null ? "@" + name : "@" + name + "(" + arguments + ")";
    }

    private static String number(JsonNode n) {
        double value = n.asDouble();
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            long whole = (long) value;
            return whole == (int) whole ? Long.toString(whole) : whole + "L";
        }
        return Double.toString(value);
    }

    // ---------------------------------------------------------------- source text

    private void writeRecord(StringBuilder out, RecordDecl record, int depth, String apiVersion, boolean namespaced) {
        String indent = "    ".repeat(depth);
        boolean root = depth == 0;
        if (record.keepsUnknown) {
            imports.add("com.fasterxml.jackson.annotation.JsonAnySetter");
            imports.add("com.fasterxml.jackson.annotation.JsonAnyGetter");
            imports.add("java.util.Map");
            String name = record.claimComponentName("additionalProperties");
            record.components.add(new Component(
                    name,
                    null,
                    List.of("@JsonAnySetter", "@JsonAnyGetter"),
                    "Map<String, Object>",
                    "fields the schema does not name, kept as read (the API server keeps them too)",
                    null));
        }
        out.append(indent).append("/**\n");
        for (String line : record.javadoc.split("\n", -1)) {
            out.append(indent).append(line.isEmpty() ? " *" : " * " + line).append('\n');
        }
        boolean first = true;
        for (Component c : record.components) {
            if (c.description().isEmpty()) {
                continue;
            }
            if (first) {
                out.append(indent).append(" *\n");
                first = false;
            }
            out.append(indent)
                    .append(" * @param ")
                    .append(c.javaName())
                    .append(' ')
                    .append(escapeJavadoc(firstSentence(c.description())))
                    .append('\n');
        }
        out.append(indent).append(" */\n");
        if (root) {
            imports.add("tools.jackson.databind.annotation.JsonDeserialize");
            out.append(indent)
                    .append("@JsonDeserialize(using = ")
                    .append(record.name)
                    .append(".JsonReader.class)\n");
        }
        for (String a : record.typeAnnotations) {
            out.append(indent).append(a).append('\n');
        }
        out.append(indent).append("public record ").append(record.name).append('(');
        for (int i = 0; i < record.components.size(); i++) {
            Component c = record.components.get(i);
            out.append(i == 0 ? "\n" : ",\n").append(indent).append("        ");
            List<String> onType = new ArrayList<>();
            for (String a : c.annotations()) {
                if (a.startsWith("@JsonProperty(")) {
                    out.append(a).append(' '); // a declaration annotation only
                } else {
                    onType.add(a);
                }
            }
            out.append(annotate(onType, c.type())).append(' ').append(c.javaName());
        }
        out.append(")");
        if (root) {
            out.append("\n").append(indent).append("        implements KubernetesObject");
        }
        out.append(" {\n");
        String inner = indent + "    ";
        List<String> names = record.components.stream().map(Component::javaName).toList();
        if (root) {
            out.append('\n')
                    .append(inner)
                    .append("/** The API version of this kind: {@value}. */\n")
                    .append(inner)
                    .append("public static final String API_VERSION = ")
                    .append(literal(apiVersion))
                    .append(";\n\n")
                    .append(inner)
                    .append("/** The kind: {@value}. */\n")
                    .append(inner)
                    .append("public static final String KIND = ")
                    .append(literal(record.name))
                    .append(";\n\n");
            writeReaderTable(out, inner, record);
            String params = namespaced ? "String namespace, String name" : "String name";
            out.append(inner)
                    .append("/** A new ")
                    .append(record.name)
                    .append(" with its API version, kind, ")
                    .append(namespaced ? "namespace " : "")
                    .append("and name set. */\n")
                    .append(inner)
                    .append("public static ")
                    .append(record.name)
                    .append(" of(")
                    .append(params)
                    .append(") {\n")
                    .append(inner)
                    .append("    return new ")
                    .append(record.name)
                    .append("(API_VERSION, KIND, ObjectMeta.of(")
                    .append(namespaced ? "namespace" : "null")
                    .append(", name)");
            for (int i = 3; i < names.size(); i++) {
                out.append(", null");
            }
            out.append(");\n").append(inner).append("}\n");
        } else {
            String factory = names.contains("empty") ? "create" : "empty";
            out.append('\n')
                    .append(inner)
                    .append("/** A ")
                    .append(record.name)
                    .append(" with no field set. */\n")
                    .append(inner)
                    .append("public static ")
                    .append(record.name)
                    .append(' ')
                    .append(factory)
                    .append("() {\n")
                    .append(inner)
                    .append("    return new ")
                    .append(record.name)
                    .append('(')
                    .append(String.join(", ", java.util.Collections.nCopies(names.size(), "null")))
                    .append(");\n")
                    .append(inner)
                    .append("}\n");
        }
        for (Component c : record.components) {
            String method = "with" + JavaNames.capitalize(c.javaName());
            out.append('\n')
                    .append(inner)
                    .append("/** This ")
                    .append(record.name)
                    .append(" with {@code ")
                    .append(c.javaName())
                    .append("} replaced. */\n")
                    .append(inner)
                    .append("public ")
                    .append(record.name)
                    .append(' ')
                    .append(method)
                    .append('(')
                    .append(erase(c.type()))
                    .append(' ')
                    .append(c.javaName())
                    .append(") {\n")
                    .append(inner)
                    .append("    return new ")
                    .append(record.name)
                    .append('(')
                    .append(String.join(", ", names))
                    .append(");\n")
                    .append(inner)
                    .append("}\n");
        }
        writeReader(out, record, inner);
        if (root) {
            writeJacksonReader(out, record, inner);
        }
        for (TypeDecl nested : record.nested) {
            out.append('\n');
            switch (nested) {
                case RecordDecl r -> writeRecord(out, r, depth + 1, apiVersion, namespaced);
                case EnumDecl e -> writeEnum(out, e, depth + 1);
            }
        }
        out.append(indent).append("}\n");
    }

    /**
     * The record's {@code readJson}: its properties straight from a {@code JsonInput} into its canonical
     * constructor, one {@code case} per property, by its number in the record's {@code JsonFields}.
     */
    private void writeReader(StringBuilder out, RecordDecl record, String indent) {
        imports.add("io.kubeloop.api.json.JsonInput");
        imports.add("io.kubeloop.api.json.JsonFields");
        Set<String> taken = new HashSet<>();
        for (Component c : record.components) {
            taken.add(c.javaName());
        }
        String in = freshName("in", taken);
        String field = freshName("field", taken);
        String fields = freshName("JSON_FIELDS", taken);
        String body = indent + "    ";
        List<Component> named =
                record.components.stream().filter(c -> c.jsonName() != null).toList();
        out.append('\n')
                .append(indent)
                .append("private static final JsonFields ")
                .append(fields)
                .append(" = JsonFields.of(")
                .append(record.name)
                .append(".class");
        for (Component c : named) {
            out.append(",\n").append(body).append("        ").append(literal(c.jsonName()));
        }
        out.append(");\n");
        out.append('\n')
                .append(indent)
                .append("private static ")
                .append(record.name)
                .append(" readJson(JsonInput ")
                .append(in)
                .append(") {\n")
                .append(body)
                .append("if (")
                .append(in)
                .append(".isNull()) {\n")
                .append(body)
                .append("    return null;\n")
                .append(body)
                .append("}\n");
        Component unknown = null;
        for (Component c : record.components) {
            out.append(body)
                    .append(erase(c.type()))
                    .append(' ')
                    .append(c.javaName())
                    .append(" = null;\n");
            if (c.jsonName() == null) {
                unknown = c;
            }
        }
        out.append(body)
                .append("for (int ")
                .append(field)
                .append(" = ")
                .append(in)
                .append(".firstField(")
                .append(fields)
                .append("); ")
                .append(field)
                .append(" != JsonInput.END; ")
                .append(field)
                .append(" = ")
                .append(in)
                .append(".nextField(")
                .append(fields)
                .append(")) {\n")
                .append(body)
                .append("    switch (")
                .append(field)
                .append(") {\n");
        for (int i = 0; i < named.size(); i++) {
            Component c = named.get(i);
            out.append(body)
                    .append("        case ")
                    .append(i)
                    .append(" -> ")
                    .append(c.javaName())
                    .append(" = ")
                    .append(c.read().on(in))
                    .append(';');
            if (c.jsonName().matches("[\\w.$/-]+")) { // a name that reads the same in a comment
                out.append(" // ").append(c.jsonName());
            }
            out.append('\n');
        }
        out.append(body).append("        default -> ");
        if (unknown != null) {
            out.append(unknown.javaName())
                    .append(" = ")
                    .append(in)
                    .append(".keep(")
                    .append(unknown.javaName())
                    .append(", ")
                    .append(in)
                    .append(".fieldName());\n");
        } else {
            out.append(in).append(".skipField(").append(fields).append(");\n");
        }
        out.append(body).append("    }\n").append(body).append("}\n");
        out.append(body)
                .append("return new ")
                .append(record.name)
                .append('(')
                .append(String.join(
                        ", ",
                        record.components.stream().map(Component::javaName).toList()))
                .append(");\n")
                .append(indent)
                .append("}\n");
    }

    /** The kind's Jackson deserializer: its generated reader, found through {@code @JsonDeserialize}. */
    private void writeJacksonReader(StringBuilder out, RecordDecl record, String indent) {
        imports.add("io.kubeloop.api.json.ModelDeserializer");
        String body = indent + "    ";
        out.append('\n')
                .append(indent)
                .append("/**\n")
                .append(indent)
                .append(" * Jackson's deserializer of {@code ")
                .append(record.name)
                .append("}: the reader generated with this record, straight from the\n")
                .append(indent)
                .append(
                        " * parser into the records, without reflection. Jackson finds it through {@code @JsonDeserialize}.\n")
                .append(indent)
                .append(" */\n")
                .append(indent)
                .append("public static final class JsonReader extends ModelDeserializer<")
                .append(record.name)
                .append("> {\n\n")
                .append(body)
                .append("/** The deserializer (Jackson creates it). */\n")
                .append(body)
                .append("public JsonReader() {\n")
                .append(body)
                .append("    super(")
                .append(record.name)
                .append(".class);\n")
                .append(body)
                .append("}\n\n")
                .append(body)
                .append("@Override\n")
                .append(body)
                .append("protected ")
                .append(record.name)
                .append(" read(JsonInput in) {\n")
                .append(body)
                .append("    return readJson(in);\n")
                .append(body)
                .append("}\n");
        writeNestedReaders(out, record, body);
        out.append(indent).append("}\n");
    }

    /**
     * The root's table of the nested records' readers. A nested record is read through it ({@code
     * JsonInput.record}) rather than by a direct call so that the JIT compiles each reader once, on its own:
     * called directly, every nested reader is inlined into its parent's, and the kind's large readers then
     * take seconds to compile. The table holds instances of one class ({@link #writeNestedReaders}), not a
     * method reference per record: the JVM defines a class for each method reference when it is first
     * evaluated, which for a kind with hundreds of nested records costs a noticeable part of a second when
     * the kind is first read.
     */
    private void writeReaderTable(StringBuilder out, String indent, RecordDecl root) {
        if (readers.isEmpty()) {
            return;
        }
        imports.add("java.util.function.Function");
        out.append(indent)
                .append("/** The nested records' readers, by index (see {@code JsonInput.record}). */\n")
                .append(indent)
                .append("private static final Function<?, ?>[] READERS = JsonReader.")
                .append(nestedReadersName(root))
                .append(".table(")
                .append(readers.size())
                .append(");\n\n");
    }

    /** The name of the class of the nested readers, within the kind's JsonReader (not the kind's name). */
    private static String nestedReadersName(RecordDecl root) {
        return root.name.equals("Nested") ? "NestedRecords" : "Nested";
    }

    /**
     * The class of the entries of the {@code READERS} table, nested in the kind's JsonReader: each instance
     * reads the nested record of its index. Its references to the records are qualified by the kind's name,
     * which no nested type shares.
     */
    private void writeNestedReaders(StringBuilder out, RecordDecl root, String indent) {
        if (readers.isEmpty()) {
            return;
        }
        String name = nestedReadersName(root);
        String body = indent + "    ";
        out.append('\n')
                .append(indent)
                .append("/** Reads the nested record of one index of {@code READERS}; one class for all of them. */\n")
                .append(indent)
                .append("private static final class ")
                .append(name)
                .append(" implements Function<JsonInput, Object> {\n\n")
                .append(body)
                .append("private final int index;\n\n")
                .append(body)
                .append("private ")
                .append(name)
                .append("(int index) {\n")
                .append(body)
                .append("    this.index = index;\n")
                .append(body)
                .append("}\n\n")
                .append(body)
                .append("static Function<?, ?>[] table(int size) {\n")
                .append(body)
                .append("    Function<?, ?>[] table = new Function<?, ?>[size];\n")
                .append(body)
                .append("    for (int i = 0; i < size; i++) {\n")
                .append(body)
                .append("        table[i] = new ")
                .append(name)
                .append("(i);\n")
                .append(body)
                .append("    }\n")
                .append(body)
                .append("    return table;\n")
                .append(body)
                .append("}\n\n")
                .append(body)
                .append("@Override\n")
                .append(body)
                .append("public Object apply(JsonInput in) {\n")
                .append(body)
                .append("    return switch (index) {\n");
        for (int i = 0; i < readers.size(); i++) {
            out.append(body)
                    .append("        case ")
                    .append(i)
                    .append(" -> ")
                    .append(root.name)
                    .append('.')
                    .append(path(readers.get(i)))
                    .append(".readJson(in);\n");
        }
        out.append(body)
                .append("        default -> throw new IllegalStateException(\"no nested record \" + index);\n")
                .append(body)
                .append("    };\n")
                .append(body)
                .append("}\n")
                .append(indent)
                .append("}\n");
    }

    /** A nested record's name as seen from anywhere in the file ({@code Application.Spec.Source}). */
    private static String qualified(RecordDecl record) {
        RecordDecl root = record;
        while (root.parent != null) {
            root = root.parent;
        }
        return root.name + "." + path(record);
    }

    /** A nested record's name as seen from the kind's record ({@code Spec.Source}). */
    private static String path(RecordDecl record) {
        StringBuilder path = new StringBuilder(record.name);
        for (RecordDecl r = record.parent; r != null && r.parent != null; r = r.parent) {
            path.insert(0, r.name + ".");
        }
        return path.toString();
    }

    private static String freshName(String wanted, Set<String> taken) {
        String name = wanted;
        for (int i = 2; taken.contains(name) || name.matches("e\\d+"); i++) {
            name = wanted + i;
        }
        return name;
    }

    private void writeEnum(StringBuilder out, EnumDecl e, int depth) {
        imports.add("com.fasterxml.jackson.annotation.JsonProperty");
        String indent = "    ".repeat(depth);
        out.append(indent).append("/**\n");
        for (String line : e.javadoc().split("\n", -1)) {
            out.append(indent).append(line.isEmpty() ? " *" : " * " + line).append('\n');
        }
        out.append(indent).append(" */\n");
        out.append(indent).append("public enum ").append(e.name()).append(" {\n");
        int i = 0;
        for (Map.Entry<String, String> c : e.constants().entrySet()) {
            out.append(indent)
                    .append("    @JsonProperty(")
                    .append(literal(c.getValue()))
                    .append(")\n")
                    .append(indent)
                    .append("    ")
                    .append(c.getKey())
                    .append(++i == e.constants().size() ? ";\n" : ",\n");
        }
        imports.add("io.kubeloop.api.json.JsonInput");
        String inner = indent + "    ";
        out.append('\n')
                .append(inner)
                .append("private static ")
                .append(e.name())
                .append(" readJson(JsonInput in) {\n")
                .append(inner)
                .append("    String text = in.text();\n")
                .append(inner)
                .append("    if (text != null) {\n")
                .append(inner)
                .append("        switch (text) {\n");
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, String> c : e.constants().entrySet()) {
            if (seen.add(c.getValue())) {
                out.append(inner)
                        .append("            case ")
                        .append(literal(c.getValue()))
                        .append(" -> {\n")
                        .append(inner)
                        .append("                return ")
                        .append(c.getKey())
                        .append(";\n")
                        .append(inner)
                        .append("            }\n");
            }
        }
        out.append(inner)
                .append("            default -> {}\n")
                .append(inner)
                .append("        }\n")
                .append(inner)
                .append("    }\n")
                .append(inner)
                .append("    return in.value(")
                .append(e.name())
                .append(".class);\n")
                .append(inner)
                .append("}\n");
        out.append(indent).append("}\n");
    }

    /** The type without its type-use annotations (a parameter's type; annotations stay on the component). */
    private static String erase(String type) {
        return type.replaceAll("@\\w+(\\((?:[^()\"]|\"(?:[^\"\\\\]|\\\\.)*\")*\\))? ", "");
    }

    // ---------------------------------------------------------------- text helpers

    private static String javadoc(JsonNode schema, String fallback) {
        String description = schema.path("description").asString("").strip();
        if (description.isEmpty()) {
            return fallback == null ? "(No description in the schema.)" : fallback;
        }
        return escapeJavadoc(description);
    }

    /** The first sentence ({@code "Requested 'duration' (i.e. lifetime) of the Certificate."}), abbreviations kept. */
    static String firstSentence(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        BreakIterator sentences = BreakIterator.getSentenceInstance(Locale.ROOT);
        sentences.setText(flat);
        int end = sentences.next();
        while (end != BreakIterator.DONE && end < flat.length() && !startsSentence(flat, end)) {
            end = sentences.next();
        }
        return end == BreakIterator.DONE ? flat : flat.substring(0, end).strip();
    }

    /** A sentence starts with a capital letter or a digit, so "i.e. lifetime" goes on. */
    private static boolean startsSentence(String text, int at) {
        char c = text.charAt(at);
        return Character.isUpperCase(c) || Character.isDigit(c);
    }

    /** Text safe inside a Javadoc comment: no comment end, no tags, no HTML, no unicode escapes. */
    static String escapeJavadoc(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("*/", "*&#47;")
                .replace("@", "&#64;")
                .replace("\\", "&#92;")
                .replace("{", "&#123;")
                .replace("}", "&#125;");
    }

    /** A Java string literal. */
    static String literal(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static String stringArray(JsonNode values) {
        List<String> items = new ArrayList<>();
        for (JsonNode v : values) {
            items.add(literal(v.asString()));
        }
        return items.size() == 1 ? items.getFirst() : "{" + String.join(", ", items) + "}";
    }
}
