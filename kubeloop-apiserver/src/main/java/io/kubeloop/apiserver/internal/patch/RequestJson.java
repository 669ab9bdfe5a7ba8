package io.kubeloop.apiserver.internal.patch;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON from a request body (an object, a patch): nesting up to {@value #MAX_DEPTH} levels of arrays and objects;
 * one level more is a client's mistake, found by a scan of the bytes before anything is built, and answered with
 * Go's {@code "invalid character '[' exceeded max depth"}. Go's {@code encoding/json}, and so kube-apiserver,
 * accepts 10,000 levels; kubeloop keeps Jackson's default of 500 because its patch, apply and validation code
 * recurses once or more per level, and 2,000 levels already overflow a thread's stack there.
 *
 * <p>Stateless and thread-safe.
 */
public final class RequestJson {

    /** The deepest nesting a body may have (Jackson's default; kube-apiserver's is 10,000). */
    public static final int MAX_DEPTH = 500;

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .build())
                    .build())
            .build();

    private RequestJson() {}

    /**
     * Reads JSON text as a tree.
     *
     * @throws tools.jackson.core.JacksonException when it is not JSON
     */
    public static JsonNode read(byte[] json) {
        return MAPPER.readTree(json);
    }

    /** A streaming parser of JSON text with the same depth limit as {@link #read}. */
    public static JsonParser parser(byte[] json) {
        return MAPPER.createParser(json);
    }

    /**
     * Go's error for JSON nested deeper than {@link #MAX_DEPTH}, or null when it is not (strings are skipped; the
     * text need not be valid JSON).
     */
    public static String depthError(byte[] json) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < json.length; i++) {
            byte c = json[i];
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                if (++depth > MAX_DEPTH) {
                    return "invalid character '" + (char) c + "' exceeded max depth";
                }
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
        return null;
    }

    /** {@link #depthError(byte[])} of JSON text. */
    static String depthError(String json) {
        return depthError(json.getBytes(StandardCharsets.UTF_8));
    }
}
