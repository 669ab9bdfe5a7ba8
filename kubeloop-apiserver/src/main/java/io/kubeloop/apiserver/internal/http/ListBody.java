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
 * <p>{@link #partialObjectMetadata} lists the same page as a {@code meta.k8s.io} PartialObjectMetadataList
 * whose items are {@link PartialObjects PartialObjectMetadata}; as kube-apiserver builds that list anew,
 * an empty one has {@code "items":null}.
 *
 * <p><b>Thread safety.</b> Not thread-safe: one request thread pulls the chunks.
 */
final class ListBody {

    private final ResourceDefinition def;
    /** The apiVersion of PartialObjectMetadata items, or null for the resource's own items. */
    private final String partialApiVersion;

    private final List<StoredObject> items;
    private final int chunkSize;
    /** The list's head ({@code {"kind":…,"items":[}), until the first chunk has taken it; then null. */
    private byte[] head;
    /** Index of the first item not yet in a returned chunk. */
    private int next;
    /** True once the chunk with the tail has been returned. */
    private boolean done;

    ListBody(ResourceDefinition def, ListPage page, int chunkSize) {
        this(def, null, page, chunkSize);
    }

    private ListBody(ResourceDefinition def, String partialApiVersion, ListPage page, int chunkSize) {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunkSize must be positive: " + chunkSize);
        }
        this.def = def;
        this.partialApiVersion = partialApiVersion;
        this.items = page.items();
        this.chunkSize = chunkSize;
        this.head = partialApiVersion == null
                ? head(def.listKind(), def.apiVersion(), page, "[")
                : head("PartialObjectMetadataList", partialApiVersion, page, items.isEmpty() ? "null}" : "[");
    }

    /**
     * {@code page} as a PartialObjectMetadataList of {@code apiVersion} ({@code meta.k8s.io/v1} or
     * {@code meta.k8s.io/v1beta1}), items of the same apiVersion, chunked like any list.
     */
    static ListBody partialObjectMetadata(ResourceDefinition def, String apiVersion, ListPage page, int chunkSize) {
        return new ListBody(def, apiVersion, page, chunkSize);
    }

    /**
     * The next chunk, or null once the whole body has been returned. The first chunk starts with the
     * list's head, the last ends with {@code ]}} (an empty PartialObjectMetadataList is one chunk ending
     * with {@code "items":null}}).
     *
     * @throws RuntimeException whatever converting an item throws; the chunks returned before stay valid
     *                          but the body is then incomplete
     */
    byte[] next() {
        if (done) {
            return null;
        }
        if (items.isEmpty() && partialApiVersion != null) { // the head is the whole body
            done = true;
            return head;
        }
        byte[] prefix = head;
        head = null;
        int from = next;
        long size = prefix == null ? 0 : prefix.length;
        List<byte[]> parts = new ArrayList<>();
        while (next < items.size() && (size < chunkSize || parts.isEmpty())) { // at least one item
            byte[] item = partialApiVersion == null
                    ? VersionConversion.json(def, items.get(next))
                    : PartialObjects.of(partialApiVersion, items.get(next).json());
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

    /** {@code {"kind":…,"metadata":{…},"items":} followed by {@code items} ({@code [}, or {@code null}} for a whole body). */
    private static byte[] head(String kind, String apiVersion, ListPage page, String items) {
        StringBuilder head = new StringBuilder("{\"kind\":\"")
                .append(kind)
                .append("\",\"apiVersion\":\"")
                .append(apiVersion)
                .append("\",\"metadata\":{\"resourceVersion\":\"")
                .append(page.resourceVersion())
                .append('"');
        if (page.continueToken() != null) {
            head.append(",\"continue\":\"").append(page.continueToken()).append('"');
        }
        if (page.remainingItemCount() != null) {
            head.append(",\"remainingItemCount\":").append(page.remainingItemCount());
        }
        head.append("},\"items\":").append(items);
        return head.toString().getBytes(StandardCharsets.UTF_8);
    }
}
