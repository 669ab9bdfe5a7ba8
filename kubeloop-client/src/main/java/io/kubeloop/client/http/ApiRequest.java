package io.kubeloop.client.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request to the API server: method, absolute URI, headers and an optional body.
 *
 * <p>Immutable and thread-safe. Header names are kept as given; lookups are case-insensitive.
 *
 * @param method the HTTP method in upper case
 * @param uri the absolute request URI, query included
 * @param headers header name to values, in insertion order
 * @param body the request body, or null for none
 * @param streaming true for watches and streamed lists: the response body is read incrementally and must never be
 *        buffered by an interceptor
 */
public record ApiRequest(String method, URI uri, Map<String, List<String>> headers, byte[] body, boolean streaming) {

    public ApiRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
    }

    /** A GET without headers. */
    public static ApiRequest get(URI uri) {
        return new ApiRequest("GET", uri, Map.of(), null, false);
    }

    /** True for methods that may be retried after a 429/5xx without changing the outcome (GET, HEAD). */
    public boolean isSafe() {
        return method.equals("GET") || method.equals("HEAD");
    }

    /** The first value of a header (case-insensitive name), or null. */
    public String header(String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    /** A copy with one header set (replacing any value under the same name, ignoring case). */
    public ApiRequest withHeader(String name, String value) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        headers.forEach((k, v) -> {
            if (!k.equalsIgnoreCase(name)) {
                copy.put(k, v);
            }
        });
        copy.put(name, List.of(value));
        return new ApiRequest(method, uri, copy, body, streaming);
    }

    /** A copy with another URI. */
    public ApiRequest withUri(URI newUri) {
        return new ApiRequest(method, newUri, headers, body, streaming);
    }
}
