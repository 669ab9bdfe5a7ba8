package io.kubeloop.testing.faults;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link FaultInjectingProxy} does to one request. Each value is one failure a client of a real
 * API server meets: a refusal with back-off advice, a watch whose resource version is too old, a
 * connection that breaks in the middle of a response, a response that stops flowing for a while, a
 * connection that goes silent for good.
 */
public sealed interface Fault {

    /** A short name for counts and messages. */
    String kind();

    /** Forward the request and relay the whole response untouched. */
    record Pass() implements Fault {
        @Override
        public String kind() {
            return "pass";
        }
    }

    /**
     * Answer without forwarding: a Status with {@code code} and {@code reason} and a
     * {@code Retry-After} of {@code retryAfter} (whole seconds, as the API server sends it).
     *
     * @param code the HTTP status, e.g. 429 or 500
     * @param reason the Status reason, e.g. {@code TooManyRequests}
     * @param retryAfter the advised wait
     */
    record Reject(int code, String reason, Duration retryAfter) implements Fault {
        public Reject {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }

        @Override
        public String kind() {
            return "reject-" + code;
        }
    }

    /**
     * A watch (only) answered with 200 and a single {@code ERROR} event carrying a 410 Expired
     * Status, then the end of the stream: what the API server sends when the watch's resource
     * version has left its history window.
     */
    record WatchGone() implements Fault {
        @Override
        public String kind() {
            return "watch-gone";
        }
    }

    /**
     * Forward the request, relay {@code afterBytes} of the response body — and go on relaying until
     * the response has run for {@code notBefore} — then reset the connection (TCP RST, no TLS
     * close_notify): a response cut off, often in the middle of a chunk or an object. A watch cut
     * after a second or more is one a client resumes rather than relists (it is not a "very short
     * watch").
     *
     * @param afterBytes body bytes relayed before the cut
     * @param notBefore how long after the response began the cut comes at the earliest
     */
    record Cut(long afterBytes, Duration notBefore) implements Fault {
        public Cut {
            Objects.requireNonNull(notBefore, "notBefore");
        }

        @Override
        public String kind() {
            return "cut";
        }
    }

    /**
     * Forward the request, relay {@code afterBytes} of the response body, then relay nothing for
     * {@code pause} before going on: a stalled stream that recovers.
     *
     * @param afterBytes body bytes relayed before the stall
     * @param pause how long nothing flows
     */
    record Stall(long afterBytes, Duration pause) implements Fault {
        public Stall {
            Objects.requireNonNull(pause, "pause");
        }

        @Override
        public String kind() {
            return "stall";
        }
    }

    /**
     * A connection that goes silent and stays open: what a client meets behind a proxy or load
     * balancer that stops forwarding, or when its peer vanished without a reset (a half-open TCP
     * connection). With {@code afterBytes} of zero or more the proxy forwards the request and relays
     * the response head and {@code afterBytes} of the body; with a negative {@code afterBytes} it
     * accepts the request and forwards nothing at all (no response head either). From then on nothing
     * passes in either direction — not the server's further events or bookmarks, not the end of its
     * response — and the proxy never closes the connection: it lets go of it only when the client
     * hangs up (or the proxy is closed). A client notices only through its own timeouts. Usually for
     * watches; on any other request it holds that request's client until its request timeout.
     *
     * @param afterBytes body bytes relayed before the silence; negative: the request is never forwarded
     */
    record Blackhole(long afterBytes) implements Fault {
        @Override
        public String kind() {
            return "blackhole";
        }
    }
}
