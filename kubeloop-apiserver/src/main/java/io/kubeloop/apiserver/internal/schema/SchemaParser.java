package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.errors.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import tools.jackson.databind.JsonNode;

/**
 * Reads an {@code openAPIV3Schema} into a {@link StructuralSchema} and checks it the way
 * apiextensions-apiserver does for {@code apiextensions.k8s.io/v1} CRDs: the OpenAPI subset CRDs
 * allow ({@code ValidateCustomResourceDefinitionOpenAPISchema}) and structurality
 * ({@code ValidateStructural}: types everywhere, no types or defaults inside value validations,
 * metadata restricted to name and generateName, the int-or-string exceptions). Stateless.
 */
final class SchemaParser {

    private static final List<String> TYPES = List.of("array", "boolean", "integer", "number", "object", "string");
    private static final Set<String> META_FIELDS = Set.of("apiVersion", "kind", "metadata");

    private enum Level {
        ROOT,
        ITEM,
        FIELD
    }

    private final List<Status.Cause> causes = new ArrayList<>();

    private SchemaParser() {}

    static StructuralSchema parse(JsonNode schema, String path) {
        SchemaParser p = new SchemaParser();
        if (schema == null || schema.isNull() || schema.isMissingNode() || !schema.isObject()) {
            throw new NonStructuralSchemaException(List.of(FieldErrors.required(path, "")));
        }
        if (schema.path("nullable").asBoolean(false)) {
            p.causes.add(FieldErrors.forbidden(path + ".nullable", "nullable cannot be true at the root"));
        }
        StructuralSchema s = p.node(schema, path, Level.ROOT, false);
        if (!p.causes.isEmpty()) {
            List<Status.Cause> sorted = new ArrayList<>(p.causes);
            sorted.sort(Comparator.comparing(FieldErrors::render));
            throw new NonStructuralSchemaException(sorted);
        }
        return s;
    }

    /** Reads one structural node, checking it at {@code level}. */
    private StructuralSchema node(JsonNode n, String path, Level level, boolean embeddedParent) {
        StructuralSchema.Builder b = attributes(n);
        checkOpenApiSubset(n, path);
        // children
        JsonNode props = n.path("properties");
        if (props.isObject()) {
            for (Map.Entry<String, JsonNode> e : props.properties()) {
                String childPath = path + ".properties[" + e.getKey() + "]";
                b.property(e.getKey(), node(e.getValue(), childPath, Level.FIELD, false));
            }
        }
        JsonNode items = n.get("items");
        if (items != null && items.isObject()) {
            b.items(node(items, path + ".items", Level.ITEM, false));
        }
        JsonNode ap = n.get("additionalProperties");
        if (ap != null) {
            if (ap.isObject()) {
                b.additionalProperties(node(ap, path + ".additionalProperties", Level.FIELD, false));
            } else if (ap.isBoolean() && ap.booleanValue()) {
                b.additionalProperties(StructuralSchema.EMPTY);
            }
            if (level == Level.ROOT) {
                causes.add(FieldErrors.forbidden(path + ".additionalProperties", "must not be used at the root"));
            }
            if (b.embeddedResource) {
                causes.add(FieldErrors.forbidden(
                        path + ".additionalProperties", "must not be used if x-kubernetes-embedded-resource is set"));
            }
        }
        readValueValidations(n, b, path);
        checkInvariants(n, b, path, level);
        StructuralSchema built = b.build();
        checkDefault(built, path);
        return built;
    }

    /** A default must itself be valid against its schema (the real server's ValidateDefaults). */
    private void checkDefault(StructuralSchema s, String path) {
        JsonNode def = s.rawDefault();
        if (def == null) {
            return;
        }
        for (Status.Cause c : SchemaValidator.validate(s, def)) {
            String field = c.field().equals("<nil>") ? path + ".default" : path + ".default." + c.field();
            causes.add(new Status.Cause(c.reason(), c.message(), field));
        }
    }

    private void checkInvariants(JsonNode n, StructuralSchema.Builder b, String path, Level level) {
        if ("array".equals(b.type) && !n.has("items")) {
            causes.add(FieldErrors.required(path + ".items", "must be specified"));
        }
        if (b.intOrString && b.preserveUnknownFields) {
            causes.add(FieldErrors.invalidRendered(
                    path + ".x-kubernetes-preserve-unknown-fields",
                    "true",
                    "must be false if x-kubernetes-int-or-string is true"));
        }
        if (b.intOrString && b.embeddedResource) {
            causes.add(FieldErrors.invalidRendered(
                    path + ".x-kubernetes-embedded-resource",
                    "true",
                    "must be false if x-kubernetes-int-or-string is true"));
        }
        if (b.embeddedResource && !"object".equals(b.type)) {
            if (b.type.isEmpty()) {
                causes.add(FieldErrors.required(
                        path + ".type", "must be object if x-kubernetes-embedded-resource is true"));
            } else {
                causes.add(FieldErrors.invalid(
                        path + ".type", b.type, "must be object if x-kubernetes-embedded-resource is true"));
            }
        } else if (b.type.isEmpty() && !b.intOrString && !b.preserveUnknownFields) {
            String detail = switch (level) {
                case ROOT -> "must not be empty at the root";
                case ITEM -> "must not be empty for specified array items";
                case FIELD -> "must not be empty for specified object fields";
            };
            causes.add(FieldErrors.required(path + ".type", detail));
        }
        if (level == Level.ROOT && !b.type.isEmpty() && !"object".equals(b.type)) {
            causes.add(FieldErrors.invalid(path + ".type", b.type, "must be object at the root"));
        }
        boolean checkMetadata = level == Level.ROOT || b.embeddedResource;
        for (String meta : List.of("kind", "apiVersion")) {
            StructuralSchema p = b.properties.get(meta);
            if (p != null && checkMetadata && !"string".equals(p.type())) {
                causes.add(FieldErrors.invalid(path + ".properties[" + meta + "].type", p.type(), "must be string"));
            }
        }
        JsonNode metadata = n.path("properties").get("metadata");
        if (metadata != null && metadata.isObject()) {
            String metaPath = path + ".properties[metadata]";
            String metaType = metadata.path("type").asString("");
            if (checkMetadata && !"object".equals(metaType)) {
                causes.add(FieldErrors.invalid(metaPath + ".type", metaType, "must be object"));
            }
            if (level == Level.ROOT) {
                checkRootMetadata(metadata, metaPath);
            }
        }
        if (b.embeddedResource && !b.preserveUnknownFields && b.properties.isEmpty()) {
            causes.add(
                    FieldErrors.required(
                            path + ".properties",
                            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
        }
    }

    /** Root metadata may restrict name and generateName only. */
    private void checkRootMetadata(JsonNode metadata, String metaPath) {
        for (Map.Entry<String, JsonNode> e : metadata.properties()) {
            String k = e.getKey();
            boolean allowed = k.equals("type")
                    || k.equals("default")
                    || (k.equals("properties") && onlyNameAndGenerateName(e.getValue()));
            if (!allowed) {
                causes.add(
                        FieldErrors.forbidden(
                                metaPath,
                                "must not specify anything other than name and generateName, but metadata is implicitly specified"));
                return;
            }
        }
    }

    private static boolean onlyNameAndGenerateName(JsonNode props) {
        for (Map.Entry<String, JsonNode> e : props.properties()) {
            if (!e.getKey().equals("name") && !e.getKey().equals("generateName")) {
                return false;
            }
        }
        return true;
    }

    /** The OpenAPI features CRD schemas may not use, checked on every node (structural or nested). */
    private void checkOpenApiSubset(JsonNode n, String path) {
        String type = n.path("type").asString("");
        if (!type.isEmpty() && !TYPES.contains(type)) {
            causes.add(FieldErrors.notSupported(path + ".type", GoFormat.quote(type), TYPES));
        }
        if ("null".equals(type)) {
            causes.add(FieldErrors.forbidden(
                    path + ".type", "type cannot be set to null, use nullable as an alternative"));
        }
        forbidIfPresent(n, "id", path, "id is not supported");
        forbidIfPresent(n, "additionalItems", path, "additionalItems is not supported");
        forbidIfPresent(n, "patternProperties", path, "patternProperties is not supported");
        forbidIfPresent(n, "definitions", path, "definitions is not supported");
        forbidIfPresent(n, "dependencies", path, "dependencies is not supported");
        forbidIfPresent(n, "$ref", path, "$ref is not supported");
        if (n.path("items").isArray()) {
            causes.add(FieldErrors.forbidden(path + ".items", "items must be a schema object and not an array"));
        }
        if (n.path("uniqueItems").asBoolean(false)) {
            causes.add(FieldErrors.forbidden(
                    path + ".uniqueItems",
                    "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
        }
        JsonNode ap = n.get("additionalProperties");
        if (ap != null
                && n.path("properties").size() > 0
                && (ap.isObject() || (ap.isBoolean() && !ap.booleanValue()))) {
            causes.add(FieldErrors.forbidden(
                    path + ".additionalProperties", "additionalProperties and properties are mutual exclusive"));
        }
        JsonNode preserve = n.get("x-kubernetes-preserve-unknown-fields");
        if (preserve != null && preserve.isBoolean() && !preserve.booleanValue()) {
            causes.add(FieldErrors.invalidRendered(
                    path + ".x-kubernetes-preserve-unknown-fields", "false", "must be true or undefined"));
        }
        String listType = n.path("x-kubernetes-list-type").asString("");
        if (n.has("x-kubernetes-list-type") && !List.of("atomic", "set", "map").contains(listType)) {
            causes.add(FieldErrors.notSupported(
                    path + ".x-kubernetes-list-type", GoFormat.quote(listType), List.of("atomic", "set", "map")));
        }
        String pattern = n.path("pattern").asString("");
        if (!pattern.isEmpty()) {
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                causes.add(FieldErrors.invalid(
                        path + ".pattern",
                        pattern,
                        "must be a valid regular expression, but isn't: " + e.getDescription()));
            }
        }
    }

    private void forbidIfPresent(JsonNode n, String key, String path, String detail) {
        if (n.has(key)) {
            causes.add(FieldErrors.forbidden(path + "." + key, detail));
        }
    }

    /** Reads the scalar keywords of a node (structural or value-validation alike). */
    /**
     * A builder holding the keywords of schema object {@code n} that are not schemas themselves: type,
     * format, description, value validations, the {@code x-kubernetes-*} extensions and validation rules
     * (a pattern that does not compile is left out).
     */
    static StructuralSchema.Builder attributes(JsonNode n) {
        StructuralSchema.Builder b = new StructuralSchema.Builder();
        b.type = n.path("type").asString("");
        b.format = n.path("format").asString("");
        b.description = n.path("description").asString("");
        b.nullable = n.path("nullable").asBoolean(false);
        n.path("required").forEach(r -> b.required.add(r.asString()));
        n.path("enum").forEach(b.enumValues::add);
        b.defaultValue = n.get("default");
        b.minimum = number(n, "minimum");
        b.maximum = number(n, "maximum");
        b.exclusiveMinimum = n.path("exclusiveMinimum").asBoolean(false);
        b.exclusiveMaximum = n.path("exclusiveMaximum").asBoolean(false);
        b.multipleOf = number(n, "multipleOf");
        b.minLength = integer(n, "minLength");
        b.maxLength = integer(n, "maxLength");
        b.minItems = integer(n, "minItems");
        b.maxItems = integer(n, "maxItems");
        b.minProperties = integer(n, "minProperties");
        b.maxProperties = integer(n, "maxProperties");
        String pattern = n.path("pattern").asString("");
        if (!pattern.isEmpty() && compiles(pattern)) {
            b.pattern = pattern;
        }
        b.uniqueItems = n.path("uniqueItems").asBoolean(false);
        b.intOrString = n.path("x-kubernetes-int-or-string").asBoolean(false);
        b.preserveUnknownFields = n.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        b.embeddedResource = n.path("x-kubernetes-embedded-resource").asBoolean(false);
        b.listType = n.path("x-kubernetes-list-type").asString("");
        n.path("x-kubernetes-list-map-keys").forEach(k -> b.listMapKeys.add(k.asString()));
        b.mapType = n.path("x-kubernetes-map-type").asString("");
        for (JsonNode v : n.path("x-kubernetes-validations")) {
            b.validationRules.add(new ValidationRule(
                    v.path("rule").asString(""),
                    v.path("message").asString(""),
                    v.path("messageExpression").asString(""),
                    v.path("reason").asString(""),
                    v.path("fieldPath").asString(""),
                    v.path("optionalOldSelf").asBoolean(false)));
        }
        return b;
    }

    /** allOf/anyOf/oneOf/not: nested value validations, which must not carry structure. */
    private void readValueValidations(JsonNode n, StructuralSchema.Builder b, String path) {
        boolean skipAnyOf = isIntOrStringAnyOf(n.path("anyOf"));
        boolean skipFirstAllOfAnyOf = n.path("allOf").isArray()
                && n.path("allOf").size() > 0
                && isIntOrStringAnyOf(n.path("allOf").get(0).path("anyOf"));
        for (String junctor : List.of("allOf", "anyOf", "oneOf")) {
            JsonNode list = n.path(junctor);
            List<StructuralSchema> target = switch (junctor) {
                case "allOf" -> b.allOf;
                case "anyOf" -> b.anyOf;
                default -> b.oneOf;
            };
            for (int i = 0; i < list.size(); i++) {
                String vPath = path + "." + junctor + "[" + i + "]";
                boolean skip = (junctor.equals("anyOf") && skipAnyOf);
                target.add(nested(list.get(i), vPath, skip, junctor.equals("allOf") && i == 0 && skipFirstAllOfAnyOf));
                checkCompleteness(list.get(i), b, path, vPath);
            }
        }
        JsonNode not = n.get("not");
        if (not != null && not.isObject()) {
            b.not = nested(not, path + ".not", false, false);
            checkCompleteness(not, b, path, path + ".not");
        }
    }

    private StructuralSchema nested(JsonNode v, String vPath, boolean skipForbidden, boolean skipInnerAnyOf) {
        checkOpenApiSubset(v, vPath);
        StructuralSchema.Builder b = attributes(v);
        if (!skipForbidden) {
            checkNestedForbidden(v, vPath);
        }
        JsonNode props = v.path("properties");
        for (Map.Entry<String, JsonNode> e : props.properties()) {
            b.property(e.getKey(), nested(e.getValue(), vPath + ".properties[" + e.getKey() + "]", false, false));
        }
        if (v.path("items").isObject()) {
            b.items(nested(v.get("items"), vPath + ".items", false, false));
        }
        for (String junctor : List.of("allOf", "anyOf", "oneOf")) {
            JsonNode list = v.path(junctor);
            for (int i = 0; i < list.size(); i++) {
                boolean skip = skipInnerAnyOf && junctor.equals("anyOf");
                StructuralSchema s = nested(list.get(i), vPath + "." + junctor + "[" + i + "]", skip, false);
                (junctor.equals("allOf") ? b.allOf : junctor.equals("anyOf") ? b.anyOf : b.oneOf).add(s);
            }
        }
        if (v.path("not").isObject()) {
            b.not = nested(v.get("not"), vPath + ".not", false, false);
        }
        return b.build();
    }

    private void checkNestedForbidden(JsonNode v, String p) {
        if (!v.path("type").asString("").isEmpty()) {
            causes.add(FieldErrors.forbidden(p + ".type", "must be empty to be structural"));
        }
        if (v.has("additionalProperties")) {
            causes.add(FieldErrors.forbidden(p + ".additionalProperties", "must be undefined to be structural"));
        }
        if (v.has("default")) {
            causes.add(FieldErrors.forbidden(p + ".default", "must be undefined to be structural"));
        }
        if (!v.path("title").asString("").isEmpty()) {
            causes.add(FieldErrors.forbidden(p + ".title", "must be empty to be structural"));
        }
        if (!v.path("description").asString("").isEmpty()) {
            causes.add(FieldErrors.forbidden(p + ".description", "must be empty to be structural"));
        }
        if (v.path("nullable").asBoolean(false)) {
            causes.add(FieldErrors.forbidden(p + ".nullable", "must be false to be structural"));
        }
        if (v.has("externalDocs")) {
            causes.add(FieldErrors.forbidden(p + ".externalDocs", "must be undefined to be structural"));
        }
        for (String x : List.of(
                "x-kubernetes-preserve-unknown-fields",
                "x-kubernetes-embedded-resource",
                "x-kubernetes-int-or-string")) {
            if (v.path(x).asBoolean(false)) {
                causes.add(FieldErrors.forbidden(p + "." + x, "must be false to be structural"));
            }
        }
        if (v.path("x-kubernetes-list-map-keys").size() > 0) {
            causes.add(FieldErrors.forbidden(p + ".x-kubernetes-list-map-keys", "must be empty to be structural"));
        }
        for (String x : List.of("x-kubernetes-list-type", "x-kubernetes-map-type")) {
            if (v.has(x)) {
                causes.add(FieldErrors.forbidden(p + "." + x, "must be undefined to be structural"));
            }
        }
        if (v.path("x-kubernetes-validations").size() > 0) {
            causes.add(FieldErrors.forbidden(p + ".x-kubernetes-validations", "must be empty to be structural"));
        }
        if (v.path("properties").has("metadata")) {
            causes.add(FieldErrors.forbidden(p + ".properties[metadata]", "must not be specified in a nested context"));
        }
    }

    /** Every property a value validation names must also be specified structurally. */
    private void checkCompleteness(JsonNode v, StructuralSchema.Builder structural, String sPath, String vPath) {
        for (Map.Entry<String, JsonNode> e : v.path("properties").properties()) {
            String k = e.getKey();
            if (!structural.properties.containsKey(k)
                    && structural.additionalProperties == null
                    && !structural.preserveUnknownFields) {
                causes.add(FieldErrors.required(
                        sPath + ".properties[" + k + "]",
                        "because it is defined in " + vPath + ".properties[" + k + "]"));
            }
        }
    }

    private static boolean isIntOrStringAnyOf(JsonNode anyOf) {
        if (!anyOf.isArray() || anyOf.size() != 2) {
            return false;
        }
        return onlyType(anyOf.get(0), "integer") && onlyType(anyOf.get(1), "string");
    }

    private static boolean onlyType(JsonNode n, String type) {
        return n.isObject() && n.size() == 1 && type.equals(n.path("type").asString(""));
    }

    private static boolean compiles(String pattern) {
        try {
            Pattern.compile(pattern);
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    private static Double number(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v != null && v.isNumber() ? v.doubleValue() : null;
    }

    private static Long integer(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v != null && v.isNumber() ? v.longValue() : null;
    }

    static boolean isMetaField(String name) {
        return META_FIELDS.contains(name);
    }
}
