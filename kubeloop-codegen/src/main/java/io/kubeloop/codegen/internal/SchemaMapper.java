package io.kubeloop.codegen.internal;

import static io.kubeloop.codegen.internal.JavaText.annotate;
import static io.kubeloop.codegen.internal.JavaText.javadoc;
import static io.kubeloop.codegen.internal.JavaText.literal;
import static io.kubeloop.codegen.internal.JavaText.number;
import static io.kubeloop.codegen.internal.JavaText.rawType;
import static io.kubeloop.codegen.internal.JavaText.stringArray;

import io.kubeloop.codegen.CodegenException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps a kind's OpenAPI schema to Java: for each property a record component with a Java type, the
 * annotations that carry what the type does not, and how the generated reader reads it; declaring nested
 * records and enums in the owning {@link RecordDecl}, and one record for a schema repeated in the kind.
 *
 * <p>Invariants: every schema key is either modelled by a type or annotation or kept in {@code @SchemaExtra},
 * so {@link SchemaWriter} writes the same schema back; lambda parameter names are unique in the file; the
 * index of a nested record in {@link #readers()} is the one its readers use. Not thread-safe: one instance
 * per source file.
 */
final class SchemaMapper {

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

    private final ImportSet imports;

    /** A mapper whose types' imports go to {@code imports}. */
    SchemaMapper(ImportSet imports) {
        this.imports = imports;
    }

    /** The nested records, in the order of the kind's {@code READERS} table of their readers. */
    List<RecordDecl> readers() {
        return readers;
    }

    /**
     * Notes the object schemas that appear more than once under the kind's {@code schema}, so that each
     * becomes one record, declared at its shallowest place. Call once, before {@link #fillRecord}.
     */
    void findRepeatedShapes(JsonNode schema) {
        Map<String, Integer> counts = new HashMap<>();
        findShapes(schema, 0, counts);
        counts.forEach((shape, n) -> {
            if (n < 2) {
                shallowest.remove(shape);
            }
        });
    }

    /** Adds a component per property of {@code schema} (but {@code skip}) to {@code record}. */
    void fillRecord(RecordDecl record, JsonNode schema, Set<String> skip) {
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
                imports.add(ImportSet.CRD + "Required");
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
            imports.add(ImportSet.API + "IntOrString");
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
                    javaType = same.qualifiedName();
                } else {
                    String name = owner.claimNestedName(wantedTypeName(owner, jsonName, item));
                    RecordDecl nested = new RecordDecl(name, owner, javadoc(schema, null));
                    owner.nested.add(nested);
                    index = readers.size();
                    readers.add(nested);
                    fillRecord(nested, schema, Set.of());
                    if (shape != null && nested.depth() == shallowest.get(shape)) {
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
            imports.add(ImportSet.CRD + "Format");
            annotations.add("@Format(" + literal(format) + ")");
        }
        if (preserve && !handled.contains("x-kubernetes-preserve-unknown-fields")) {
            imports.add(ImportSet.CRD + "PreserveUnknownFields");
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
                imports.add(ImportSet.CRD + "SchemaExtra");
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

    private static String typeArgument(TypeRef ref) {
        return annotate(ref.annotations(), ref.type());
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
    List<String> schemaAnnotations(JsonNode schema, boolean root) {
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
        imports.add(ImportSet.CRD + name);
        return arguments == null ? "@" + name : "@" + name + "(" + arguments + ")";
    }
}
