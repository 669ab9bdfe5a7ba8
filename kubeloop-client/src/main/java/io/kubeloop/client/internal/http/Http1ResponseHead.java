package io.kubeloop.client.internal.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The status line and header fields of an HTTP/1.1 response, read from the connection up to the
 * empty line that ends them (RFC 9112 §2–5). Interim 1xx responses are skipped.
 *
 * @param status the final status code
 * @param headers field values by name; the map's lookups ignore case, as HTTP field names do
 */
record Http1ResponseHead(int status, Map<String, List<String>> headers) {

    /** The longest head accepted: more is not an API server talking. */
    static final int MAX_HEAD = 64 * 1024;

    Http1ResponseHead {
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        headers = Collections.unmodifiableMap(copy);
    }

    /** The first value of a field, or null. */
    String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * Reads a response head.
     *
     * @throws IOException when the connection ends first or the head is not HTTP/1.x
     */
    static Http1ResponseHead read(InputStream in) throws IOException {
        while (true) {
            int[] budget = {MAX_HEAD};
            String statusLine = line(in, budget);
            if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
                throw new IOException("not an HTTP/1.1 response: " + abbreviate(statusLine));
            }
            int status;
            try {
                status = Integer.parseInt(statusLine.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new IOException("malformed status line: " + abbreviate(statusLine));
            }
            TreeMap<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String field = line(in, budget); !field.isEmpty(); field = line(in, budget)) {
                int colon = field.indexOf(':');
                if (colon <= 0) {
                    throw new IOException("malformed header field: " + abbreviate(field));
                }
                headers.computeIfAbsent(field.substring(0, colon).strip(), k -> new ArrayList<>())
                        .add(field.substring(colon + 1).strip());
            }
            if (status >= 200 || status == 101) {
                return new Http1ResponseHead(status, headers);
            }
            // 1xx interim response (100 Continue, 103 Early Hints): the final one follows
        }
    }

    private static String line(InputStream in, int[] budget) throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException(
                        sb.isEmpty() && budget[0] == MAX_HEAD
                                ? "the server closed the connection without a response"
                                : "the connection ended inside the response head");
            }
            if (--budget[0] < 0) {
                throw new IOException("response head longer than " + MAX_HEAD + " bytes");
            }
            if (c == '\n') {
                int last = sb.length() - 1;
                if (last >= 0 && sb.charAt(last) == '\r') {
                    sb.setLength(last);
                }
                return sb.toString();
            }
            sb.append((char) c);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }
}
