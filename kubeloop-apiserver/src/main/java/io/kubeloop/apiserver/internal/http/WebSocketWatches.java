package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.internal.RequestInfo.Unresolvable;
import io.kubeloop.apiserver.internal.registry.ListParams;
import io.kubeloop.apiserver.internal.storage.Watcher;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.FutureCallback;
import org.eclipse.jetty.websocket.core.CloseStatus;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.FrameHandler;
import org.eclipse.jetty.websocket.core.OpCode;
import org.eclipse.jetty.websocket.core.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.core.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.core.server.WebSocketNegotiator;

/**
 * Watches over WebSocket (fabric8's default): an authenticated upgrade on a watch URL gets one text
 * message per event (after the same access control as any request), its object in the form the upgrade request's {@code Accept} negotiated (as on a
 * chunked watch: the object, a Table, or PartialObjectMetadata). Anything else (bad token, not a watch,
 * invalid options, an Accept with nothing this server can produce) is declined, so the request falls
 * through to the HTTP handler, which answers with the proper Status.
 *
 * <p><b>Thread safety.</b> Thread-safe; one virtual thread pumps each WebSocket watch.
 */
final class WebSocketWatches implements WebSocketNegotiator {

    private final ApiHandler handler;

    WebSocketWatches(ApiHandler handler) {
        this.handler = handler;
    }

    @Override
    public FrameHandler negotiate(ServerUpgradeRequest request, ServerUpgradeResponse response, Callback callback) {
        try {
            handler.admit(request);
        } catch (ApiException | Unresolvable e) {
            return null; // the HTTP handler answers with the 401, 403 or 500
        }
        Optional<ResourceRoute> route = ResourceRoute.parse(
                Request.getPathInContext(request), handler.registry().resources());
        var query = Request.extractQueryParameters(request);
        if (route.isEmpty()
                || !(route.get().legacyWatch() || QueryParams.bool(query.getValue("watch")))
                || route.get().name() != null) {
            return null;
        }
        Accepts accepts = Accepts.parse(request.getHeaders().get(HttpHeader.ACCEPT));
        if (!accepts.acceptable()) {
            return null;
        }
        Tables.Include table;
        try {
            table = accepts.table() ? Tables.include(query.getValue("includeObject")) : null;
        } catch (ApiException e) {
            return null;
        }
        ListParams params = QueryParams.listParams(query, true);
        Watcher watcher;
        try {
            watcher = handler.registry()
                    .watch(route.get().definition(), route.get().namespace(), params);
        } catch (ApiException e) {
            return null;
        }
        if (!request.getSubProtocols().isEmpty()) {
            response.setAcceptedSubProtocol(request.getSubProtocols().getFirst());
        }
        return new Pump(route.get(), params, accepts, table, watcher);
    }

    private final class Pump implements FrameHandler {
        private final ResourceRoute route;
        private final ListParams params;
        private final Accepts accepts;
        private final Tables.Include table;
        private final Watcher watcher;

        Pump(ResourceRoute route, ListParams params, Accepts accepts, Tables.Include table, Watcher watcher) {
            this.route = route;
            this.params = params;
            this.accepts = accepts;
            this.table = table;
            this.watcher = watcher;
        }

        @Override
        public void onOpen(CoreSession session, Callback callback) {
            callback.succeeded();
            session.demand();
            Thread.ofVirtual().name("ws-watch-" + route.definition().plural()).start(() -> {
                WatchResponseWriter stream = new WatchResponseWriter(
                        route.definition(),
                        watcher,
                        params.allowWatchBookmarks(),
                        accepts,
                        table,
                        handler.options().bookmarkInterval(),
                        handler.clock());
                stream.run(frames -> send(session, frames), handler.deadline(params));
                session.close(1000, "watch ended", Callback.NOOP);
            });
        }

        /**
         * Sends one text message per frame (without its newline). All but the last are queued as a batch,
         * which Jetty aggregates into as few TLS records and writes as fit; then this waits until every
         * one is written, so at most one batch per watch is ever queued in Jetty (a stuck client blocks
         * only this pump, whose watcher then overflows; writers never wait).
         */
        private static void send(CoreSession session, List<byte[]> frames) throws IOException {
            FutureCallback[] callbacks = new FutureCallback[frames.size()];
            for (int i = 0; i < callbacks.length; i++) {
                byte[] f = frames.get(i);
                callbacks[i] = new FutureCallback();
                session.sendFrame(
                        new Frame(OpCode.TEXT).setPayload(ByteBuffer.wrap(f, 0, f.length - 1)),
                        callbacks[i],
                        i < callbacks.length - 1);
            }
            try {
                for (FutureCallback cb : callbacks) {
                    cb.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while sending watch events");
            } catch (ExecutionException e) {
                throw new IOException(e.getCause());
            }
        }

        @Override
        public void onFrame(Frame frame, Callback callback) {
            callback.succeeded();
            if (frame.getOpCode() == OpCode.CLOSE) {
                watcher.close();
            }
        }

        @Override
        public void onError(Throwable cause, Callback callback) {
            watcher.close();
            callback.succeeded();
        }

        @Override
        public void onClosed(CloseStatus closeStatus, Callback callback) {
            watcher.close();
            callback.succeeded();
        }
    }
}
