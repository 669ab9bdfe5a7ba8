package io.kubeloop.apiserver.internal.http;

import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.VersionConversion;
import io.kubeloop.apiserver.internal.storage.ListPage;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON body of a LIST ({@code <Kind>List}), produced in chunks so that a large list is never whole
 * in memory and its first bytes leave before its last item is encoded, as kube-apiserver's streaming
 * list encoder does.
 *
 * <p>Each item is written as its stored bytes (converted only when the served version differs). A
 * chunk holds at least one whole item (the head rides with the first, the tail with the last) and is
 * cut as soon as it reaches the chunk size, so every chunk but the last is at least {@code chunkSize}
 * bytes and at most {@code chunkSize} plus one item; a list that fits in one chunk comes out as
 * exactly one chunk (callers then send it with a {@code Content-Length}).
 * Concatenated, the chunks are exactly one JSON document:
 * {@code {"kind":…,"apiVersion":…,"metadata":{"resourceVersion":…[,"continue":…][,"remainingItemCount":…]},"items":[…]}}.
 *
 * <p><b>Thread safety.</b> Not thread-safe: one request thread pulls the chunks.
 */
final class ListBody {

    private final ResourceDefinition def;
    private final List<StoredObject> items;
    private final int chunkSize;
    /** The list's head ({@code {"kind":…,"items":[}), until the first chunk has taken it; then null. */
    private byte[] head;
    /** Index of the first item not yet in a returned chunk. */
    private int next;
    /** True once the chunk with the tail has been returned. */
    private boolean done;

    ListBody(ResourceDefinition def, ListPage page, int chunkSize) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunkSize must be positive: " + chunkSize);
        }
        this.def = def;
        this.items = page.items();
        this.chunkSize = chunkSize;
        this.head = head(def, page);
    }

    /**
     * The next chunk, or null once the whole body has been returned. The first chunk starts with the
     * list's head, the last ends with {@code ]}}.
     *
     * @throws RuntimeException whatever converting an item throws; the chunks returned before stay valid
     *                          but the body is then incomplete
     */
    byte[] next() {
        if (done) {
            return null;
        }
        byte[] prefix = head;
        head = null;
        int from = next;
        long size = prefix == null ? 0 : prefix.length;
        List<byte[]> parts = new ArrayList<>();
        while (next < items.size() && (size < chunkSize || parts.isEmpty())) { // at least one item
            byte[] item = VersionConversion.json(def, items.get(next));
            size += item.length + (next > 0 ? 1 : 0); // and the comma before it
            parts.add(item);
            next++;
        }
        boolean last = next == items.size();
        if (last) {
            size += 2;
            done = true;
        }
        byte[] out = new byte[Math.toIntExact(size)]; // over 2 GiB in one chunk: a 500, use limit and continue
        int at = 0;
        if (prefix != null) {
            System.arraycopy(prefix, 0, out, 0, prefix.length);
            at = prefix.length;
        }
        for (int i = 0; i < parts.size(); i++) {
            if (from + i > 0) {
                out[at++] = ',';
            }
            byte[] part = parts.get(i);
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        if (last) {
            out[at++] = ']';
            out[at] = '}';
        }
        return out;
    }

    /** The whole body in one array. */
    static byte[] whole(ResourceDefinition def, ListPage page) {
        return new ListBody(def, page, Integer.MAX_VALUE).next();
    }

    private static byte[] head(ResourceDefinition def, ListPage page) {
        StringBuilder head = new StringBuilder("{\"kind\":\"")
                .append(def.listKind())
                .append("\",\"apiVersion\":\"")
                .append(def.apiVersion())
                .append("\",\"metadata\":{\"resourceVersion\":\"")
                .append(page.resourceVersion())
                .append('"');
        if (page.continueToken() != null) {
            head.append(",\"continue\":\"").append(page.continueToken()).append('"');
        }
        if (page.remainingItemCount() != null) {
            head.append(",\"remainingItemCount\":").append(page.remainingItemCount());
        }
        head.append("},\"items\":[");
        return head.toString().getBytes(StandardCharsets.UTF_8);
    }
}
