package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.ApiTimeoutException;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.apiserver.internal.registry.ListParams;
import io.kubeloop.apiserver.internal.storage.Watcher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Streams a watch over a chunked HTTP response for {@link ApiHandler}: opens the registry watch, writes the
 * frames {@link WatchResponseWriter} produces until the deadline, a client disconnect, or the watch ends.
 *
 * <p><b>Thread safety.</b> Stateless; static methods only. Each call blocks its own request thread.
 */
final class ChunkedWatch {
    private static final String JSON = "application/json";

    private ChunkedWatch() {}

    /**
     * Serves a watch on this thread until it ends; the response is chunked. Event objects take the form
     * {@code accepts} negotiated ({@code table} is the Table's includeObject when that form is a Table).
     */
    static void stream(
            ApiHandler handler,
            ResourceRoute route,
            ListParams params,
            Accepts accepts,
            Tables.Include table,
            Response response,
            Callback callback) {
        Watcher watcher;
        try {
            watcher = handler.registry().watch(route.definition(), route.namespace(), params);
        } catch (GoneException | ApiTimeoutException e) {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
            response.write(true, ByteBuffer.wrap(WatchResponseWriter.errorFrame(e.status())), callback);
            return;
        }
        // a client that goes away (a closed connection, a reset HTTP/2 stream) ends the watch at once,
        // not at the next event or bookmark written to it
        response.getRequest().addFailureListener(failure -> watcher.close());
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        response.getHeaders().put(HttpHeader.TRANSFER_ENCODING, "chunked");
        WatchResponseWriter.Sink sink = frames -> {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            frames.forEach(all::writeBytes);
            try (Blocker.Callback cb = Blocker.callback()) {
                response.write(false, ByteBuffer.wrap(all.toByteArray()), cb);
                cb.block();
            }
        };
        try {
            try (Blocker.Callback cb = Blocker.callback()) {
                response.write(false, BufferUtil.EMPTY_BUFFER, cb); // headers first
                cb.block();
            }
            new WatchResponseWriter(
                            route.definition(),
                            watcher,
                            params.allowWatchBookmarks(),
                            accepts,
                            table,
                            handler.options().bookmarkInterval(),
                            handler.clock())
                    .run(sink, handler.deadline(params));
        } catch (IOException e) {
            watcher.close();
        }
        response.write(true, BufferUtil.EMPTY_BUFFER, callback);
    }
}
