package io.kubeloop.apiserver.internal.openapi;

import io.kubeloop.apiserver.internal.schema.YamlText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Encodes a Swagger 2.0 JSON document as the protobuf message {@code openapi.v2.Document} of
 * gnostic ({@code github.com/google/gnostic-models/openapiv2/OpenAPIv2.proto}), which is what
 * kube-apiserver serves on {@code /openapi/v2} for the protobuf media type: it parses its JSON with
 * gnostic and marshals the message. The mapping is gnostic's: each Swagger object becomes its
 * message, keys starting with {@code x-} become {@code vendor_extension} entries
 * ({@code NamedAny} whose {@code Any.yaml} is the value as YAML text), maps become repeated
 * {@code Named*} entries in the JSON's key order, {@code type} becomes a {@code TypeItem},
 * {@code items} an {@code ItemsItem}, {@code additionalProperties} a schema or a boolean, a
 * parameter becomes a body parameter or the header/formData/query/path sub-schema its {@code in}
 * names, and values that are proto3 defaults ({@code ""}, {@code false}, {@code 0}) are omitted.
 * Fields are written in field-number order, so equal JSON gives equal bytes.
 *
 * <p>Keys gnostic's Swagger 2.0 model has no field for are dropped ({@code nullable},
 * {@code anyOf}, {@code oneOf}, {@code not} never occur in kubeloop's v2 document), as are
 * {@code security} and {@code securityDefinitions}, which kubeloop does not publish.
 *
 * <p>Stateless and thread-safe.
 */
final class GnosticV2 {

    /** Writes one JSON value as field {@code number} of the message being built. */
    @FunctionalInterface
    private interface Encoder {
        void write(ProtoWriter out, int number, JsonNode value);
    }

    private record Field(int number, Encoder encoder) {}

    /** A message type: its fields by JSON key, and the field number of its vendor extensions (0: none). */
    private record Type(Map<String, Field> fields, int extensions) {}

    /** The keys shared by Swagger's primitive items, headers and non-body parameters, in field order. */
    private static final List<String> PRIMITIVE_KEYS = List.of(
            "type",
            "format",
            "items",
            "collectionFormat",
            "default",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
            "maxLength",
            "minLength",
            "pattern",
            "maxItems",
            "minItems",
            "uniqueItems",
            "enum",
            "multipleOf");

    private static final Type EXTERNAL_DOCS =
            new Type(Map.of("description", f(1, GnosticV2::string), "url", f(2, GnosticV2::string)), 3);
    private static final Type CONTACT = new Type(
            Map.of("name", f(1, GnosticV2::string), "url", f(2, GnosticV2::string), "email", f(3, GnosticV2::string)),
            4);
    private static final Type LICENSE =
            new Type(Map.of("name", f(1, GnosticV2::string), "url", f(2, GnosticV2::string)), 3);
    private static final Type INFO = new Type(
            Map.of(
                    "title",
                    f(1, GnosticV2::string),
                    "version",
                    f(2, GnosticV2::string),
                    "description",
                    f(3, GnosticV2::string),
                    "termsOfService",
                    f(4, GnosticV2::string),
                    "contact",
                    f(5, message(CONTACT)),
                    "license",
                    f(6, message(LICENSE))),
            7);
    private static final Type TAG = new Type(
            Map.of(
                    "name",
                    f(1, GnosticV2::string),
                    "description",
                    f(2, GnosticV2::string),
                    "externalDocs",
                    f(3, message(EXTERNAL_DOCS))),
            4);
    private static final Type XML = new Type(
            Map.of(
                    "name",
                    f(1, GnosticV2::string),
                    "namespace",
                    f(2, GnosticV2::string),
                    "prefix",
                    f(3, GnosticV2::string),
                    "attribute",
                    f(4, GnosticV2::bool),
                    "wrapped",
                    f(5, GnosticV2::bool)),
            6);
    private static final Type SCHEMA = new Type(
            Map.ofEntries(
                    Map.entry("$ref", f(1, GnosticV2::string)),
                    Map.entry("format", f(2, GnosticV2::string)),
                    Map.entry("title", f(3, GnosticV2::string)),
                    Map.entry("description", f(4, GnosticV2::string)),
                    Map.entry("default", f(5, GnosticV2::any)),
                    Map.entry("multipleOf", f(6, GnosticV2::float64)),
                    Map.entry("maximum", f(7, GnosticV2::float64)),
                    Map.entry("exclusiveMaximum", f(8, GnosticV2::bool)),
                    Map.entry("minimum", f(9, GnosticV2::float64)),
                    Map.entry("exclusiveMinimum", f(10, GnosticV2::bool)),
                    Map.entry("maxLength", f(11, GnosticV2::int64)),
                    Map.entry("minLength", f(12, GnosticV2::int64)),
                    Map.entry("pattern", f(13, GnosticV2::string)),
                    Map.entry("maxItems", f(14, GnosticV2::int64)),
                    Map.entry("minItems", f(15, GnosticV2::int64)),
                    Map.entry("uniqueItems", f(16, GnosticV2::bool)),
                    Map.entry("maxProperties", f(17, GnosticV2::int64)),
                    Map.entry("minProperties", f(18, GnosticV2::int64)),
                    Map.entry("required", f(19, GnosticV2::strings)),
                    Map.entry("enum", f(20, GnosticV2::anys)),
                    Map.entry("additionalProperties", f(21, GnosticV2::additionalProperties)),
                    Map.entry("type", f(22, GnosticV2::typeItem)),
                    Map.entry("items", f(23, GnosticV2::items)),
                    Map.entry("allOf", f(24, (out, n, v) -> v.forEach(s -> out.message(n, schema(s))))),
                    Map.entry("properties", f(25, (out, n, v) -> out.message(n, named(v, GnosticV2::schema)))),
                    Map.entry("discriminator", f(26, GnosticV2::string)),
                    Map.entry("readOnly", f(27, GnosticV2::bool)),
                    Map.entry("xml", f(28, message(XML))),
                    Map.entry("externalDocs", f(29, message(EXTERNAL_DOCS))),
                    Map.entry("example", f(30, GnosticV2::any))),
            31);
    private static final Type FILE_SCHEMA = new Type(
            Map.of(
                    "format",
                    f(1, GnosticV2::string),
                    "title",
                    f(2, GnosticV2::string),
                    "description",
                    f(3, GnosticV2::string),
                    "default",
                    f(4, GnosticV2::any),
                    "required",
                    f(5, GnosticV2::strings),
                    "type",
                    f(6, GnosticV2::string),
                    "readOnly",
                    f(7, GnosticV2::bool),
                    "externalDocs",
                    f(8, message(EXTERNAL_DOCS)),
                    "example",
                    f(9, GnosticV2::any)),
            10);
    /** Also read (qualified, to allow the forward reference) by its own {@code items} field. */
    private static final Type PRIMITIVES_ITEMS = primitive(Map.of(), 1, 18);

    private static final Type HEADER = primitive(Map.of("description", f(18, GnosticV2::string)), 1, 19);
    /** query and formData parameters: required, in, description, name, allowEmptyValue, then the primitive keys. */
    private static final Type QUERY_PARAMETER = primitive(parameterHead(true), 6, 23);
    /** header and path parameters: required, in, description, name, then the primitive keys. */
    private static final Type PATH_PARAMETER = primitive(parameterHead(false), 5, 22);

    private static final Type BODY_PARAMETER = new Type(
            Map.of(
                    "description",
                    f(1, GnosticV2::string),
                    "name",
                    f(2, GnosticV2::string),
                    "in",
                    f(3, GnosticV2::string),
                    "required",
                    f(4, GnosticV2::bool),
                    "schema",
                    f(5, message(SCHEMA))),
            6);
    private static final Type RESPONSE = new Type(
            Map.of(
                    "description",
                    f(1, GnosticV2::string),
                    "schema",
                    f(
                            2,
                            (out, n, v) -> out.message(
                                    n,
                                    new ProtoWriter()
                                            .message(
                                                    "file".equals(text(v.path("type"))) ? 2 : 1,
                                                    encode(
                                                            "file".equals(text(v.path("type"))) ? FILE_SCHEMA : SCHEMA,
                                                            v)))),
                    "headers",
                    f(3, (out, n, v) -> out.message(n, named(v, h -> encode(HEADER, h)))),
                    "examples",
                    f(4, (out, n, v) -> out.message(n, examples(v)))),
            5);
    private static final Type OPERATION = new Type(
            Map.ofEntries(
                    Map.entry("tags", f(1, GnosticV2::strings)),
                    Map.entry("summary", f(2, GnosticV2::string)),
                    Map.entry("description", f(3, GnosticV2::string)),
                    Map.entry("externalDocs", f(4, message(EXTERNAL_DOCS))),
                    Map.entry("operationId", f(5, GnosticV2::string)),
                    Map.entry("produces", f(6, GnosticV2::strings)),
                    Map.entry("consumes", f(7, GnosticV2::strings)),
                    Map.entry("parameters", f(8, GnosticV2::parameters)),
                    Map.entry("responses", f(9, (out, n, v) -> out.message(n, responses(v)))),
                    Map.entry("schemes", f(10, GnosticV2::strings)),
                    Map.entry("deprecated", f(11, GnosticV2::bool))),
            13);
    private static final Type PATH_ITEM = new Type(
            Map.of(
                    "$ref",
                    f(1, GnosticV2::string),
                    "get",
                    f(2, message(OPERATION)),
                    "put",
                    f(3, message(OPERATION)),
                    "post",
                    f(4, message(OPERATION)),
                    "delete",
                    f(5, message(OPERATION)),
                    "options",
                    f(6, message(OPERATION)),
                    "head",
                    f(7, message(OPERATION)),
                    "patch",
                    f(8, message(OPERATION)),
                    "parameters",
                    f(9, GnosticV2::parameters)),
            10);
    private static final Type DOCUMENT = new Type(
            Map.ofEntries(
                    Map.entry("swagger", f(1, GnosticV2::string)),
                    Map.entry("info", f(2, message(INFO))),
                    Map.entry("host", f(3, GnosticV2::string)),
                    Map.entry("basePath", f(4, GnosticV2::string)),
                    Map.entry("schemes", f(5, GnosticV2::strings)),
                    Map.entry("consumes", f(6, GnosticV2::strings)),
                    Map.entry("produces", f(7, GnosticV2::strings)),
                    Map.entry("paths", f(8, (out, n, v) -> out.message(n, paths(v)))),
                    Map.entry("definitions", f(9, (out, n, v) -> out.message(n, named(v, GnosticV2::schema)))),
                    Map.entry("parameters", f(10, (out, n, v) -> out.message(n, named(v, GnosticV2::parameter)))),
                    Map.entry("responses", f(11, (out, n, v) -> out.message(n, named(v, r -> encode(RESPONSE, r))))),
                    Map.entry("tags", f(14, (out, n, v) -> v.forEach(t -> out.message(n, encode(TAG, t))))),
                    Map.entry("externalDocs", f(15, message(EXTERNAL_DOCS)))),
            16);

    private GnosticV2() {}

    /** The serialized {@code openapi.v2.Document} of a Swagger 2.0 document. */
    static byte[] document(JsonNode swagger) {
        if (!swagger.isObject()) {
            throw new IllegalArgumentException("a Swagger 2.0 document must be a JSON object");
        }
        return encode(DOCUMENT, swagger).toByteArray();
    }

    // ---- message types with the shape of Swagger's -------------------------------------------

    private static ProtoWriter encode(Type type, JsonNode object) {
        List<Map.Entry<Field, JsonNode>> present = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            Field field = type.fields().get(e.getKey());
            if (field != null) {
                present.add(Map.entry(field, e.getValue()));
            }
        }
        present.sort(Comparator.comparingInt(e -> e.getKey().number()));
        ProtoWriter out = new ProtoWriter();
        boolean extensionsWritten = false;
        for (Map.Entry<Field, JsonNode> e : present) {
            if (!extensionsWritten
                    && type.extensions() != 0
                    && type.extensions() < e.getKey().number()) {
                extensions(out, type.extensions(), object);
                extensionsWritten = true;
            }
            e.getKey().encoder().write(out, e.getKey().number(), e.getValue());
        }
        if (!extensionsWritten && type.extensions() != 0) {
            extensions(out, type.extensions(), object);
        }
        return out;
    }

    private static ProtoWriter schema(JsonNode s) {
        return encode(SCHEMA, s);
    }

    /** {@code Paths}: vendor extensions (1), then one {@code NamedPathItem} (2) per path. */
    private static ProtoWriter paths(JsonNode v) {
        ProtoWriter out = new ProtoWriter();
        extensions(out, 1, v);
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (!e.getKey().startsWith("x-")) {
                out.message(2, new ProtoWriter().string(1, e.getKey()).message(2, encode(PATH_ITEM, e.getValue())));
            }
        }
        return out;
    }

    /** {@code Responses}: one {@code NamedResponseValue} (1) per status code, then vendor extensions (2). */
    private static ProtoWriter responses(JsonNode v) {
        ProtoWriter out = new ProtoWriter();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (!e.getKey().startsWith("x-")) {
                JsonNode r = e.getValue();
                ProtoWriter value = r.has("$ref")
                        ? new ProtoWriter().message(2, jsonReference(r))
                        : new ProtoWriter().message(1, encode(RESPONSE, r));
                out.message(1, new ProtoWriter().string(1, e.getKey()).message(2, value));
            }
        }
        extensions(out, 2, v);
        return out;
    }

    /** Repeated {@code ParametersItem}: a {@code Parameter} (1) or a {@code JsonReference} (2). */
    private static void parameters(ProtoWriter out, int number, JsonNode list) {
        for (JsonNode p : list) {
            ProtoWriter item = p.has("$ref")
                    ? new ProtoWriter().message(2, jsonReference(p))
                    : new ProtoWriter().message(1, parameter(p));
            out.message(number, item);
        }
    }

    /** {@code Parameter}: a body parameter (1) or a non-body one (2) by the sub-schema its {@code in} names. */
    private static ProtoWriter parameter(JsonNode p) {
        String in = text(p.path("in"));
        if (in.equals("body")) {
            return new ProtoWriter().message(1, encode(BODY_PARAMETER, p));
        }
        ProtoWriter nonBody = switch (in) {
            case "header" -> new ProtoWriter().message(1, encode(PATH_PARAMETER, p));
            case "formData" -> new ProtoWriter().message(2, encode(QUERY_PARAMETER, p));
            case "query" -> new ProtoWriter().message(3, encode(QUERY_PARAMETER, p));
            case "path" -> new ProtoWriter().message(4, encode(PATH_PARAMETER, p));
            default ->
                throw new IllegalArgumentException(
                        "parameter " + text(p.path("name")) + " has an unknown location in: \"" + in + "\"");
        };
        return new ProtoWriter().message(2, nonBody);
    }

    private static ProtoWriter jsonReference(JsonNode r) {
        ProtoWriter out = new ProtoWriter();
        string(out, 1, r.path("$ref"));
        string(out, 2, r.path("description"));
        return out;
    }

    /** {@code AdditionalPropertiesItem}: a schema (1) or a boolean (2, written even when false). */
    private static void additionalProperties(ProtoWriter out, int number, JsonNode v) {
        out.message(
                number,
                v.isBoolean() ? new ProtoWriter().bool(2, v.booleanValue()) : new ProtoWriter().message(1, schema(v)));
    }

    /** {@code ItemsItem}: repeated schema (1), one for an object, each for an array. */
    private static void items(ProtoWriter out, int number, JsonNode v) {
        ProtoWriter item = new ProtoWriter();
        if (v.isArray()) {
            v.forEach(s -> item.message(1, schema(s)));
        } else {
            item.message(1, schema(v));
        }
        out.message(number, item);
    }

    /** A map message: repeated {@code Named*} (1) of name (1) and value (2), in the object's key order. */
    private static ProtoWriter named(JsonNode object, Function<JsonNode, ProtoWriter> value) {
        ProtoWriter out = new ProtoWriter();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            out.message(1, new ProtoWriter().string(1, e.getKey()).message(2, value.apply(e.getValue())));
        }
        return out;
    }

    /** {@code Examples}: one {@code NamedAny} (1) per media type. */
    private static ProtoWriter examples(JsonNode object) {
        ProtoWriter out = new ProtoWriter();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            out.message(1, new ProtoWriter().string(1, e.getKey()).message(2, anyOf(e.getValue())));
        }
        return out;
    }

    private static void extensions(ProtoWriter out, int number, JsonNode object) {
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (e.getKey().startsWith("x-")) {
                out.message(number, new ProtoWriter().string(1, e.getKey()).message(2, anyOf(e.getValue())));
            }
        }
    }

    /** gnostic's {@code Any}: the value as YAML text in {@code yaml} (2). */
    private static ProtoWriter anyOf(JsonNode v) {
        return new ProtoWriter().string(2, YamlText.of(v));
    }

    /** {@code TypeItem}: the type name(s) as repeated string (1). */
    private static void typeItem(ProtoWriter out, int number, JsonNode v) {
        ProtoWriter item = new ProtoWriter();
        strings(item, 1, v);
        out.message(number, item);
    }

    // ---- scalar encoders ------------------------------------------------------------------------

    private static String text(JsonNode v) {
        return v.isString() ? v.stringValue() : "";
    }

    private static void string(ProtoWriter out, int number, JsonNode v) {
        if (v.isString() && !v.stringValue().isEmpty()) {
            out.string(number, v.stringValue());
        }
    }

    private static void strings(ProtoWriter out, int number, JsonNode v) {
        if (v.isString()) {
            out.string(number, v.stringValue());
        } else {
            v.forEach(s -> out.string(number, s.asString()));
        }
    }

    private static void bool(ProtoWriter out, int number, JsonNode v) {
        if (v.isBoolean() && v.booleanValue()) {
            out.bool(number, true);
        }
    }

    private static void int64(ProtoWriter out, int number, JsonNode v) {
        if (v.isNumber() && v.asLong() != 0) {
            out.int64(number, v.asLong());
        }
    }

    private static void float64(ProtoWriter out, int number, JsonNode v) {
        if (v.isNumber() && v.asDouble() != 0) {
            out.float64(number, v.asDouble());
        }
    }

    private static void any(ProtoWriter out, int number, JsonNode v) {
        out.message(number, anyOf(v));
    }

    private static void anys(ProtoWriter out, int number, JsonNode v) {
        v.forEach(e -> out.message(number, anyOf(e)));
    }

    // ---- table helpers --------------------------------------------------------------------------

    private static Field f(int number, Encoder encoder) {
        return new Field(number, encoder);
    }

    private static Encoder message(Type type) {
        return (out, number, v) -> out.message(number, encode(type, v));
    }

    private static Map<String, Field> parameterHead(boolean allowEmptyValue) {
        Map<String, Field> head = new HashMap<>(Map.of(
                "required",
                f(1, GnosticV2::bool),
                "in",
                f(2, GnosticV2::string),
                "description",
                f(3, GnosticV2::string),
                "name",
                f(4, GnosticV2::string)));
        if (allowEmptyValue) {
            head.put("allowEmptyValue", f(5, GnosticV2::bool));
        }
        return head;
    }

    /** A type whose {@link #PRIMITIVE_KEYS} start at field {@code first}, plus {@code head}. */
    private static Type primitive(Map<String, Field> head, int first, int extensions) {
        Map<String, Field> fields = new HashMap<>(head);
        for (int i = 0; i < PRIMITIVE_KEYS.size(); i++) {
            String key = PRIMITIVE_KEYS.get(i);
            int number = first + i;
            Encoder e = switch (key) {
                case "type", "format", "collectionFormat", "pattern" -> GnosticV2::string;
                case "items" -> (out, n, v) -> out.message(n, encode(GnosticV2.PRIMITIVES_ITEMS, v));
                case "default" -> GnosticV2::any;
                case "maximum", "minimum", "multipleOf" -> GnosticV2::float64;
                case "exclusiveMaximum", "exclusiveMinimum", "uniqueItems" -> GnosticV2::bool;
                case "maxLength", "minLength", "maxItems", "minItems" -> GnosticV2::int64;
                case "enum" -> GnosticV2::anys;
                default -> throw new IllegalStateException("unmapped primitive key " + key);
            };
            fields.put(key, f(number, e));
        }
        return new Type(Map.copyOf(fields), extensions);
    }
}
