package io.kubeloop.api.internal;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.json.KubeJson;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Decodes compact {@link DynamicObject}s straight from JSON bytes without building a tree: it reads
 * {@code apiVersion}, {@code kind} and {@code metadata}'s namespace, name, resourceVersion and uid, skips
 * everything else, and copies the object's exact byte span out of the input. Two ways in:
 * <ul>
 *   <li>from bytes ({@link #scan}, {@link #read(byte[], int, int, String, String)}): kubeloop's byte-level
 *       {@code JsonScanner} walks the object's members and its metadata's without tokenizing them, and hands
 *       what it does not accept to Jackson. This is how kubeloop's client decodes get, list and watch replies
 *       into {@code DynamicObject}s;</li>
 *   <li>from a Jackson parser positioned at the object ({@link #read(JsonParser, byte[], long)}): one walk of
 *       the parser, for callers that hold one (a list or event that the scanner left to Jackson, and
 *       {@link DynamicObject#fromJson}).</li>
 * </ul>
 *
 * {@snippet :
 * try (JsonParser p = KubeJson.mapper().createParser(bytes, offset, length)) {
 *     p.nextToken();                                    // at the object's '{'
 *     DynamicObject d = reader.read(p, bytes, -offset); // parser now at its '}'
 * }
 * }
 *
 * <p>Strings that repeat across objects (apiVersion, kind, namespace) are shared between the objects one
 * reader decodes (a bounded table), so a cache of 50,000 Pods holds one {@code "default"}.
 *
 * <p>Not thread-safe: use one reader per stream or per thread.
 */
public final class DynamicObjectReader {

    /**
     * DynamicObject's compact constructor, which trusts its caller to pass the identity found in the
     * bytes: package-private in the API, reached here, in the same module, by a private lookup.
     */
    private static final MethodHandle COMPACT = compactConstructor();
    /** KubeJson's mapper without the trailing-token check, to read a value from the middle of a document. */
    private static final JsonMapper STREAMING = KubeJson.mapper()
            .rebuild()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final StringTable shared = new StringTable();

    /** A reader with an empty shared-string table. */
    public DynamicObjectReader() {}

    /**
     * This reader's shared-string table, for decoders that read typed objects from the same stream, so
     * that their strings are shared too. Confined, like the reader, to one thread at a time.
     */
    public StringTable strings() {
        return shared;
    }

    /**
     * Reads the object at the parser's current {@code START_OBJECT} token as a compact {@link DynamicObject}
     * and leaves the parser at its {@code END_OBJECT}.
     *
     * @param parser a byte-based parser (one that reports byte offsets) over the bytes {@code input} holds
     * @param input the bytes the parser reads (all or a window of them); the object's span is copied out
     * @param inputPosition the parser's byte offset of {@code input[0]}: {@code -offset} for a parser created over
     *     {@code input} from {@code offset}; the stream position of {@code input[0]} for a parser reading a stream
     *     whose bytes {@code input} keeps
     * @throws IllegalArgumentException when the parser is not at an object of {@code input}
     * @throws tools.jackson.core.JacksonException when the JSON is malformed
     */
    public DynamicObject read(JsonParser parser, byte[] input, long inputPosition) {
        return read(parser, input, inputPosition, null, null);
    }

    /**
     * As {@link #read(JsonParser, byte[], long)}, and adds {@code apiVersion}/{@code kind} fields (at the front of
     * the object) when the object has none: items of a built-in list come without them, and client-go fills
     * them in from the list's. Null defaults add nothing.
     */
    public DynamicObject read(
            JsonParser parser, byte[] input, long inputPosition, String defaultApiVersion, String defaultKind) {
        return read(
                parser,
                new Source() {
                    @Override
                    public byte[] bytes() {
                        return input;
                    }

                    @Override
                    public long position() {
                        return inputPosition;
                    }
                },
                defaultApiVersion,
                defaultKind);
    }

    private static final byte[][] OBJECT_NAMES = names("apiVersion", "kind", "metadata");
    private static final byte[][] META_NAMES = names("namespace", "name", "resourceVersion", "uid");
    private final int[] objectSpans = new int[6];
    private final int[] metaSpans = new int[8];

    /**
     * Reads the JSON object that occupies exactly {@code input[start, end)} (from its '{' to its '}') as a compact
     * {@link DynamicObject}, without tokenizing it: a {@code JsonScanner} walks its members and those of its
     * {@code metadata}, skipping the values it does not need; what the scanner does not accept is read by
     * Jackson, so malformed JSON fails as {@link #read(JsonParser, byte[], long)} fails. Null defaults add
     * nothing (see {@link #read(JsonParser, byte[], long, String, String)}).
     *
     * @throws IllegalArgumentException when {@code input[start, end)} is not one JSON object
     * @throws tools.jackson.core.JacksonException when the JSON is malformed
     */
    public DynamicObject read(byte[] input, int start, int end, String defaultApiVersion, String defaultKind) {
        int scanned = JsonScanner.members(input, start, end, OBJECT_NAMES, objectSpans, 2, META_NAMES, metaSpans);
        DynamicObject d = scanned == end ? fromSpans(input, start, end, defaultApiVersion, defaultKind) : null;
        return d != null ? d : readWithJackson(input, start, end, defaultApiVersion, defaultKind);
    }

    /** A compact object read by the scanner and where it ends in the input. */
    public record Scanned(DynamicObject object, int end) {}

    /**
     * Reads the JSON object starting at {@code input[start]} with the scanner alone, when it ends before
     * {@code limit} and the scanner accepts it: one pass over its bytes, for a caller that does not know where
     * the object ends. Empty when the object is incomplete within {@code limit} or the scanner leaves it to
     * Jackson (then {@link #read(byte[], int, int, String, String)} over its exact span reads it or says what is
     * wrong).
     */
    public Optional<Scanned> scan(byte[] input, int start, int limit) {
        return scan(input, start, limit, null, null);
    }

    /**
     * As {@link #scan(byte[], int, int)}, and adds {@code apiVersion}/{@code kind} fields when the object has none
     * (see {@link #read(JsonParser, byte[], long, String, String)}): for the items of a list.
     */
    public Optional<Scanned> scan(byte[] input, int start, int limit, String defaultApiVersion, String defaultKind) {
        int end = JsonScanner.members(input, start, limit, OBJECT_NAMES, objectSpans, 2, META_NAMES, metaSpans);
        if (end < 0) {
            return Optional.empty();
        }
        DynamicObject d = fromSpans(input, start, end, defaultApiVersion, defaultKind);
        return d == null ? Optional.empty() : Optional.of(new Scanned(d, end));
    }

    /** The object at {@code input[start, end)} from the spans {@link #objectSpans} holds; null to use Jackson. */
    private DynamicObject fromSpans(byte[] input, int start, int end, String defaultApiVersion, String defaultKind) {
        String[] meta = null;
        int metaStart = objectSpans[4];
        if (metaStart >= 0 && input[metaStart] == '{') {
            meta = new String[4];
            for (int k = 0; k < 4; k++) {
                meta[k] = metaSpans[2 * k] < 0 ? null : scalar(input, metaSpans[2 * k], metaSpans[2 * k + 1]);
            }
            meta[0] = share(meta[0]);
        }
        boolean hasApiVersion = objectSpans[0] >= 0;
        boolean hasKind = objectSpans[2] >= 0;
        String apiVersion = hasApiVersion ? share(scalar(input, objectSpans[0], objectSpans[1])) : null;
        String kind = hasKind ? share(scalar(input, objectSpans[2], objectSpans[3])) : null;
        boolean addApiVersion = !hasApiVersion && defaultApiVersion != null;
        boolean addKind = !hasKind && defaultKind != null;
        boolean empty = input[JsonScanner.skipSpace(input, start + 1, end)] == '}';
        byte[] json = addApiVersion || addKind
                ? withFields(
                        input,
                        start,
                        end,
                        empty,
                        addKind ? defaultKind : null,
                        addApiVersion ? defaultApiVersion : null)
                : Arrays.copyOfRange(input, start, end);
        if (addApiVersion) {
            apiVersion = share(defaultApiVersion);
        }
        if (addKind) {
            kind = share(defaultKind);
        }
        return compact(json, apiVersion, kind, meta);
    }

    private DynamicObject readWithJackson(
            byte[] input, int start, int end, String defaultApiVersion, String defaultKind) {
        try (JsonParser p = STREAMING.createParser(input, start, end - start)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("expected a JSON object, got " + t);
            }
            DynamicObject d = read(p, input, -start, defaultApiVersion, defaultKind);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw new IllegalArgumentException("content after the JSON object: " + after);
            }
            return d;
        }
    }

    /**
     * The text of the scalar at {@code input[start, end)} as {@link #scalar(JsonParser, JsonToken)} gives it: a
     * string without escapes directly, anything else through Jackson.
     */
    private static String scalar(byte[] input, int start, int end) {
        byte first = input[start];
        if (first == '"' && !JsonScanner.hasEscape(input, start, end)) {
            return new String(input, start + 1, end - start - 2, StandardCharsets.UTF_8);
        }
        if (first == '{' || first == '[' || first == 'n') {
            return null;
        }
        try (JsonParser p = STREAMING.createParser(input, start, end - start)) {
            return scalar(p, p.nextToken());
        }
    }

    private static byte[][] names(String... names) {
        byte[][] out = new byte[names.length][];
        for (int k = 0; k < names.length; k++) {
            out[k] = names[k].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /**
     * Where the bytes a parser reads are kept, asked only once the object has been parsed: for a parser reading
     * a stream whose bytes are recorded into a buffer that may be replaced or shifted while the parser reads.
     */
    public interface Source {

        /** The bytes kept, holding at least the object just parsed. */
        byte[] bytes();

        /** The parser's byte offset of {@code bytes()[0]}. */
        long position();
    }

    /**
     * As {@link #read(JsonParser, byte[], long, String, String)}, with the bytes taken from {@code source} after the
     * object was parsed.
     */
    public DynamicObject read(JsonParser parser, Source source, String defaultApiVersion, String defaultKind) {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException(
                    "the parser is not at the start of a JSON object but at " + parser.currentToken());
        }
        long startOffset = parser.currentTokenLocation().getByteOffset();
        String apiVersion = null;
        String kind = null;
        boolean hasApiVersion = false;
        boolean hasKind = false;
        boolean empty = true;
        String[] meta = null;
        String field;
        while ((field = parser.nextName()) != null) {
            empty = false;
            JsonToken t = parser.nextToken();
            switch (field) {
                case "apiVersion" -> {
                    hasApiVersion = true;
                    apiVersion = share(scalar(parser, t));
                }
                case "kind" -> {
                    hasKind = true;
                    kind = share(scalar(parser, t));
                }
                case "metadata" -> meta = t == JsonToken.START_OBJECT ? readIdentity(parser) : skip(parser);
                default -> parser.skipChildren();
            }
        }
        long endOffset = parser.currentLocation().getByteOffset();
        byte[] input = source.bytes();
        long inputPosition = source.position();
        long start = startOffset - inputPosition;
        long end = endOffset - inputPosition;
        if (startOffset < 0
                || start < 0
                || end > input.length
                || input[(int) start] != '{'
                || input[(int) end - 1] != '}') {
            throw new IllegalArgumentException("the parser's bytes at offset " + startOffset + " are not input[" + start
                    + "] (input position " + inputPosition + ")");
        }
        boolean addApiVersion = !hasApiVersion && defaultApiVersion != null;
        boolean addKind = !hasKind && defaultKind != null;
        byte[] json = addApiVersion || addKind
                ? withFields(
                        input,
                        (int) start,
                        (int) end,
                        empty,
                        addKind ? defaultKind : null,
                        addApiVersion ? defaultApiVersion : null)
                : Arrays.copyOfRange(input, (int) start, (int) end);
        if (addApiVersion) {
            apiVersion = share(defaultApiVersion);
        }
        if (addKind) {
            kind = share(defaultKind);
        }
        return compact(json, apiVersion, kind, meta);
    }

    /** Namespace, name, resourceVersion, uid of the metadata object at the parser; leaves it at its end. */
    private String[] readIdentity(JsonParser parser) {
        String[] out = new String[4];
        String field;
        while ((field = parser.nextName()) != null) {
            JsonToken t = parser.nextToken();
            switch (field) {
                case "namespace" -> out[0] = share(scalar(parser, t));
                case "name" -> out[1] = scalar(parser, t);
                case "resourceVersion" -> out[2] = scalar(parser, t);
                case "uid" -> out[3] = scalar(parser, t);
                default -> parser.skipChildren();
            }
        }
        return out;
    }

    private static String[] skip(JsonParser parser) {
        parser.skipChildren();
        return null;
    }

    /** The text of a scalar (as a tree's {@code asString()} gives it), null for null and containers. */
    private static String scalar(JsonParser parser, JsonToken t) {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (!t.isScalarValue()) {
            parser.skipChildren();
            return null;
        }
        return parser.getValueAsString();
    }

    private String share(String s) {
        return shared.share(s);
    }

    /** The last head {@link #withFields} built, for a non-empty object, and what it was built from. */
    private byte[] lastHead;

    private String lastHeadKind;
    private String lastHeadApiVersion;

    /**
     * The object's bytes with {@code "kind":…,"apiVersion":…} inserted after its '{'. The inserted head of a
     * non-empty object is kept for the next call with the same kind and apiVersion (every item of a list).
     */
    private byte[] withFields(byte[] input, int start, int end, boolean empty, String kind, String apiVersion) {
        byte[] head;
        if (!empty
                && lastHead != null
                && Objects.equals(kind, lastHeadKind)
                && Objects.equals(apiVersion, lastHeadApiVersion)) {
            head = lastHead;
        } else {
            head = head(empty, kind, apiVersion);
            if (!empty) {
                lastHead = head;
                lastHeadKind = kind;
                lastHeadApiVersion = apiVersion;
            }
        }
        int restStart = empty ? end - 1 : nextNonSpace(input, start + 1);
        byte[] out = new byte[head.length + end - restStart];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(input, restStart, out, head.length, end - restStart);
        return out;
    }

    /** {@code {"kind":…,"apiVersion":…} followed by a comma unless the object is empty. */
    private static byte[] head(boolean empty, String kind, String apiVersion) {
        StringBuilder prefix = new StringBuilder("{");
        if (kind != null) {
            prefix.append("\"kind\":\"");
            JsonStringEncoder.getInstance().quoteAsString(kind, prefix);
            prefix.append('"');
        }
        if (apiVersion != null) {
            prefix.append(prefix.length() > 1 ? "," : "").append("\"apiVersion\":\"");
            JsonStringEncoder.getInstance().quoteAsString(apiVersion, prefix);
            prefix.append('"');
        }
        if (!empty) {
            prefix.append(',');
        }
        return prefix.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static int nextNonSpace(byte[] input, int from) {
        int i = from;
        while (input[i] == ' ' || input[i] == '\n' || input[i] == '\r' || input[i] == '\t') {
            i++;
        }
        return i;
    }

    /** {@code metadata.labels} of an object's JSON, read-only; null when absent or null. */
    public static Map<String, String> readLabels(byte[] json) {
        try (JsonParser p = STREAMING.createParser(json)) {
            p.nextToken();
            String field;
            while ((field = p.nextName()) != null) {
                JsonToken t = p.nextToken();
                if (field.equals("metadata") && t == JsonToken.START_OBJECT) {
                    while ((field = p.nextName()) != null) {
                        t = p.nextToken();
                        if (field.equals("labels")) {
                            if (t != JsonToken.START_OBJECT) {
                                return null;
                            }
                            Map<String, String> labels = new LinkedHashMap<>();
                            String key;
                            while ((key = p.nextName()) != null) {
                                labels.put(key, scalar(p, p.nextToken()));
                            }
                            return Collections.unmodifiableMap(labels);
                        }
                        p.skipChildren();
                    }
                    return null;
                }
                p.skipChildren();
            }
        }
        return null;
    }

    /** The metadata of a compact object's JSON, parsed; an empty ObjectMeta when it has none. */
    public static ObjectMeta readMetadata(byte[] json) {
        try (JsonParser p = STREAMING.createParser(json)) {
            p.nextToken();
            String field;
            while ((field = p.nextName()) != null) {
                JsonToken t = p.nextToken();
                if (field.equals("metadata") && t == JsonToken.START_OBJECT) {
                    return STREAMING.readValue(p, ObjectMeta.class);
                }
                p.skipChildren();
            }
        }
        return ObjectMeta.builder().build();
    }

    private static MethodHandle compactConstructor() {
        try {
            return MethodHandles.privateLookupIn(DynamicObject.class, MethodHandles.lookup())
                    .findConstructor(
                            DynamicObject.class,
                            MethodType.methodType(
                                    void.class,
                                    byte[].class,
                                    String.class,
                                    String.class,
                                    String.class,
                                    String.class,
                                    String.class,
                                    String.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A compact object over {@code json}, whose identity the caller read from it: {@code meta} holds
     * namespace, name, resourceVersion and uid, or is null when the object has no metadata.
     */
    private static DynamicObject compact(byte[] json, String apiVersion, String kind, String[] meta) {
        String namespace = meta == null ? null : meta[0];
        String name = meta == null ? null : meta[1];
        String resourceVersion = meta == null ? null : meta[2];
        String uid = meta == null ? null : meta[3];
        try {
            return (DynamicObject) COMPACT.invokeExact(json, apiVersion, kind, namespace, name, resourceVersion, uid);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable impossible) { // the constructor declares no checked exception
            throw new IllegalStateException(impossible);
        }
    }
}
