package io.kubeloop.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.internal.JsonScanner;
import io.kubeloop.api.internal.StringTable;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.json.ModelDeserializer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes one Java type as Kubernetes JSON: {@link DynamicObject} in its compact form (exact
 * bytes, decoded by a {@link DynamicObjectReader}, no tree), any other type with Jackson. Also decodes lists, filling in {@code kind}/{@code apiVersion} of
 * items that lack them (built-in lists send bare items) from the list's kind minus {@code List}
 * and its apiVersion, as client-go's unstructured list does. Immutable and thread-safe.
 */
final class ObjectCodec<T> {

    /**
     * {@link io.kubeloop.api.json.KubeJson#mapper()} without the trailing-token check, so values can
     * be read from the middle of a stream (list items, watch events) without reading ahead.
     * Immutable.
     */
    static final JsonMapper STREAMING = KubeJson.mapper()
            .rebuild()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .addModule(new SimpleModule("kubeloop-shared-strings")
                    .addDeserializer(String.class, new SharedStringDeserializer()))
            .build();

    private final Class<T> type;
    private final JsonMapper mapper;
    /** Reads T (not DynamicObject) with Jackson; null for DynamicObject. */
    private final ObjectReader typed;
    /** T's generated reader when T's records were generated, else null. */
    private final ModelDeserializer<T> model;
    /** The decoders of single-object replies, kept between replies. */
    private final ReplyReaders replyReaders;

    ObjectCodec(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
        this.mapper = STREAMING;
        this.typed = type == DynamicObject.class ? null : mapper.readerFor(type);
        this.model = JsonBytesReader.modelOf(type).orElse(null);
        this.replyReaders = new ReplyReaders(mapper, model != null);
    }

    /**
     * T's generated reader when {@code kubeloop generate models} wrote T (watch events are then read from their
     * bytes by a {@link JsonBytesReader}), else null.
     */
    ModelDeserializer<T> model() {
        return model;
    }

    JsonMapper mapper() {
        return mapper;
    }

    /** True when T is DynamicObject: values are read compact, from the input's bytes. */
    boolean isDynamic() {
        return type == DynamicObject.class;
    }

    /**
     * Reads the value at the parser's current token. A DynamicObject copies its bytes out of {@code input} (see
     * {@link DynamicObjectReader.Source}), with {@code reader}'s shared strings.
     */
    T read(JsonParser parser, DynamicObjectReader.Source input, DynamicObjectReader reader) {
        if (type == DynamicObject.class) {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("expected a JSON object, got " + parser.currentToken());
            }
            return type.cast(reader.read(parser, input, null, null));
        }
        return typed.withAttribute(StringTable.class, reader.strings()).readValue(parser);
    }

    /**
     * Reads a single-object reply: a DynamicObject compact from its bytes, a generated model by its generated
     * reader from its bytes, anything else (and what those readers hand back) with Jackson; with decoders kept
     * between replies.
     */
    T read(byte[] json) {
        ReplyReaders.Pair readers = replyReaders.take();
        try {
            return read(json, readers);
        } finally {
            replyReaders.give(readers);
        }
    }

    private T read(byte[] json, ReplyReaders.Pair readers) {
        if (type == DynamicObject.class) {
            int start = JsonScanner.skipSpace(json, 0, json.length);
            if (start < json.length && json[start] == '{') {
                var scanned = readers.dynamic().scan(json, start, json.length);
                if (scanned.isPresent()) {
                    return type.cast(scanned.get().object());
                }
            }
        } else if (readers.bytes() != null) {
            T object = readers.bytes().read(model, json, 0, json.length);
            if (object != null) {
                return object;
            }
        }
        try (JsonParser parser = mapper.createParser(json)) {
            parser.nextToken();
            return read(
                    parser,
                    new DynamicObjectReader.Source() {
                        @Override
                        public byte[] bytes() {
                            return json;
                        }

                        @Override
                        public long position() {
                            return 0;
                        }
                    },
                    readers.dynamic());
        }
    }

    /** {@code d} as T; only when {@link #isDynamic()}. */
    T cast(DynamicObject d) {
        return type.cast(d);
    }

    T fromTree(ObjectNode node) {
        return type == DynamicObject.class ? type.cast(DynamicObject.wrap(node)) : mapper.treeToValue(node, type);
    }

    /** The object as a JSON tree (for a DynamicObject: its own tree, not to be changed). */
    ObjectNode toTree(T object) {
        if (object instanceof DynamicObject d) {
            return d.node();
        }
        return asObject(mapper.valueToTree(object));
    }

    byte[] write(ObjectNode tree) {
        return mapper.writeValueAsBytes(tree);
    }

    /** The object's JSON, written straight from the object (no tree in between). */
    byte[] writeObject(T object) {
        return mapper.writeValueAsBytes(object);
    }

    /**
     * Decodes a list body. Lists of DynamicObject and of generated models are read by a {@link ListDecoder} (one
     * pass per item over its bytes); anything else, and a body the decoder does not accept, goes through
     * Jackson's streaming parser.
     */
    ObjectList<T> readList(byte[] json) {
        if (ListDecoder.decodes(this)) {
            return ListDecoder.decode(json, this);
        }
        return parseList(json);
    }

    /** The text of the scalar at {@code json[start, end)} (null for null and containers). */
    String scalarText(byte[] json, int start, int end) {
        if (json[start] == '"' && !JsonScanner.hasEscape(json, start, end)) {
            return new String(json, start + 1, end - start - 2, StandardCharsets.UTF_8);
        }
        try (JsonParser p = mapper.createParser(json, start, end - start)) {
            JsonToken t = p.nextToken();
            return t.isScalarValue() && t != JsonToken.VALUE_NULL ? p.getValueAsString() : null;
        }
    }

    /**
     * Decodes a list body with Jackson's streaming parser: metadata, then items; the items of a generated model
     * read from their bytes by its generated reader (Jackson reads what that reader hands back, and items
     * without their own kind and apiVersion).
     */
    ObjectList<T> parseList(byte[] json) {
        String kind = null;
        String apiVersion = null;
        String resourceVersion = null;
        String continueToken = null;
        Long remaining = null;
        List<ObjectNode> items = new ArrayList<>();
        List<T> compact = new ArrayList<>();
        DynamicObjectReader reader = new DynamicObjectReader();
        JsonBytesReader bytesReader = model == null ? null : new JsonBytesReader(mapper);
        try (JsonParser p = mapper.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a list reply must be a JSON object");
            }
            String field;
            while ((field = p.nextName()) != null) {
                JsonToken t = p.nextToken();
                switch (field) {
                    case "kind" -> kind = p.getValueAsString();
                    case "apiVersion" -> apiVersion = p.getValueAsString();
                    case "metadata" -> {
                        JsonNode meta = mapper.readTree(p);
                        resourceVersion = text(meta, "resourceVersion");
                        continueToken = text(meta, "continue");
                        JsonNode r = meta.path("remainingItemCount");
                        remaining = r.isNumber() ? r.asLong() : null;
                    }
                    case "items" -> {
                        if (t == JsonToken.START_ARRAY) {
                            String itemKind = itemKind(kind);
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                if (isDynamic()) {
                                    compact.add(type.cast(reader.read(p, json, 0, apiVersion, itemKind)));
                                } else if (kind != null && apiVersion != null && bytesReader != null) {
                                    // a generated model: each item read from its bytes by its generated reader
                                    int start = (int) p.currentTokenLocation().getByteOffset();
                                    p.skipChildren();
                                    int end = (int) p.currentLocation().getByteOffset();
                                    compact.add(readItem(json, start, end, apiVersion, itemKind, bytesReader, reader));
                                } else if (kind != null && apiVersion != null) {
                                    // the usual order (kind before items): each item becomes a T at once
                                    compact.add(fromItem(asObject(mapper.readTree(p)), apiVersion, itemKind, reader));
                                } else {
                                    items.add(asObject(mapper.readTree(p)));
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }
        String itemKind = itemKind(kind);
        if (isDynamic()) {
            // kind and apiVersion normally precede items; when they came after, fill them in now (rare)
            List<T> out = new ArrayList<>(compact.size());
            for (T t : compact) {
                out.add(type.cast(withTypeDefaults((DynamicObject) t, apiVersion, itemKind)));
            }
            return new ObjectList<>(out, resourceVersion, continueToken, remaining);
        }
        List<T> out = new ArrayList<>(compact.size() + items.size());
        out.addAll(compact);
        for (ObjectNode item : items) {
            out.add(fromItem(item, apiVersion, itemKind, reader));
        }
        return new ObjectList<>(out, resourceVersion, continueToken, remaining);
    }

    /**
     * The generated model's list item at {@code json[start, end)}: read by its generated reader, or by Jackson
     * when that reader hands it back, with the list's kind and apiVersion where the item has none.
     */
    T readItem(
            byte[] json,
            int start,
            int end,
            String apiVersion,
            String itemKind,
            JsonBytesReader bytesReader,
            DynamicObjectReader reader) {
        return withListType(bytesReader.read(model, json, start, end), json, start, end, apiVersion, itemKind, reader);
    }

    /**
     * {@code item} (read from {@code json[start, end)} by T's generated reader; null when it handed the item back)
     * when it has its own kind and apiVersion; otherwise the item read by Jackson with the list's kind and
     * apiVersion filled in where it has none.
     */
    T withListType(
            T item, byte[] json, int start, int end, String apiVersion, String itemKind, DynamicObjectReader reader) {
        if (typed(item)) {
            return item;
        }
        return fromItem(asObject(mapper.readTree(json, start, end - start)), apiVersion, itemKind, reader);
    }

    /** True for an item read from its bytes that needs no kind or apiVersion from its list. */
    private static boolean typed(Object item) {
        return item instanceof KubernetesObject k
                && k.kind() != null
                && !k.kind().isEmpty()
                && k.apiVersion() != null
                && !k.apiVersion().isEmpty();
    }

    /** A list item as T, with the list's kind and apiVersion filled in where the item lacks them. */
    private T fromItem(ObjectNode item, String apiVersion, String itemKind, DynamicObjectReader reader) {
        if (itemKind != null && item.path("kind").asString("").isEmpty()) {
            item.put("kind", itemKind);
        }
        if (apiVersion != null && item.path("apiVersion").asString("").isEmpty()) {
            item.put("apiVersion", apiVersion);
        }
        return typed.withAttribute(StringTable.class, reader.strings()).readValue(item);
    }

    /** The kind of a list's items: the list's kind without {@code List}; null when it has none. */
    static String itemKind(String listKind) {
        return listKind != null && listKind.endsWith("List") && listKind.length() > 4
                ? listKind.substring(0, listKind.length() - 4)
                : null;
    }

    /** {@code d} with kind and apiVersion filled in where it has none (a compact copy when changed). */
    static DynamicObject withTypeDefaults(DynamicObject d, String apiVersion, String kind) {
        boolean needsKind = kind != null && (d.kind() == null || d.kind().isEmpty());
        boolean needsApiVersion =
                apiVersion != null && (d.apiVersion() == null || d.apiVersion().isEmpty());
        if (!needsKind && !needsApiVersion) {
            return d;
        }
        return d.edit(n -> {
                    if (needsKind) {
                        n.put("kind", kind);
                    }
                    if (needsApiVersion) {
                        n.put("apiVersion", apiVersion);
                    }
                })
                .compact();
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isString() ? v.asString() : null;
    }

    private static ObjectNode asObject(JsonNode node) {
        if (node instanceof ObjectNode o) {
            return o;
        }
        throw new IllegalArgumentException("expected a JSON object, got " + node.getNodeType());
    }
}
