package io.kubeloop.client.internal.http;

import io.kubeloop.time.Durations;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JDK {@link HttpClient} that the transport's requests share, replaced by a fresh one of the same
 * configuration when its connection is presumed dead.
 *
 * <p>Why: the JDK client multiplexes its requests to a server on one HTTP/2 connection and never
 * checks that connection (it sends no HTTP/2 PINGs and has no read-idle timeout). A half-open
 * connection — the peer vanished, or a proxy or load balancer stopped forwarding — stays in its pool
 * for good, and every later request on it times out. The senders tell this holder what they saw
 * ({@link #retire}): a watch ended by its idle timeout or deadline, a request without a response head
 * within the request timeout.
 *
 * <p><b>Retiring</b> a client swaps in a new {@link Generation} (compare-and-set on the generation the
 * evidence came from, so concurrent evidence about one client retires it once, and late evidence
 * about an already retired client changes nothing), logs one WARN line with the reason, and calls
 * {@link HttpClient#shutdown()} on the old client at once: it takes no new request (one that picked it
 * just before is refused unsent, see {@link #refusedAsRetired}), and its requests in flight finish or
 * fail by their own bounds. A virtual thread then waits for the old client to terminate (it closes
 * its connections and threads once those requests have ended) and calls
 * {@link HttpClient#shutdownNow()} after {@code grace} at the latest.
 *
 * <p><b>Invariants.</b> Generation numbers grow by one per retirement; {@link #current()} is never a
 * retired client, except after {@link #close()}, which shuts down the current client and every
 * retiring one at once; nothing is retired after it.
 *
 * <p><b>Thread safety.</b> Thread-safe and lock-free: {@link #current()} is one volatile read (the
 * request path), {@link #retire} one compare-and-set.
 */
final class SharedHttpClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultApiTransport.class);

    /** The message of the IOException a client that was shut down refuses a new request with (checked on JDK 25). */
    private static final String REFUSED = "closed";

    /**
     * One client and its number in the sequence of replacements (0 for the first).
     *
     * @param client the client
     * @param number how many clients were retired before it
     */
    record Generation(HttpClient client, long number) {
        Generation {
            Objects.requireNonNull(client, "client");
        }
    }

    private final URI server;
    private final Supplier<HttpClient> factory;
    private final Duration grace;
    private final AtomicReference<Generation> current;
    /** Retired clients not yet terminated. */
    private final Set<HttpClient> retiring = ConcurrentHashMap.newKeySet();

    private volatile boolean closed;

    /**
     * @param server the server the client talks to, for the log
     * @param factory makes a client of the transport's configuration; called once now and once per
     *        retirement, possibly from several threads at once
     * @param grace the longest a retired client's requests in flight are waited for
     */
    SharedHttpClient(URI server, Supplier<HttpClient> factory, Duration grace) {
        this.server = Objects.requireNonNull(server, "server");
        this.factory = Objects.requireNonNull(factory, "factory");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.current = new AtomicReference<>(new Generation(factory.get(), 0));
    }

    /** The client for a new request. */
    Generation current() {
        return current.get();
    }

    /**
     * Retires {@code generation}'s client because its connection is presumed dead, unless it was
     * retired already or this holder is closed: requests from now on go to a new client.
     *
     * @param generation the generation the evidence came from
     * @param reason what showed the connection dead, for the log
     * @return true when this call retired it
     */
    boolean retire(Generation generation, String reason) {
        if (closed || current.get() != generation) {
            return false;
        }
        HttpClient fresh = factory.get();
        if (!current.compareAndSet(generation, new Generation(fresh, generation.number() + 1))) {
            fresh.shutdownNow(); // another failure of the same client retired it first
            return false;
        }
        HttpClient old = generation.client();
        retiring.add(old);
        old.shutdown();
        LOG.warn(
                "the connection to {} is presumed dead ({}): later requests use a new connection; the old one"
                        + " is closed once its requests in flight have ended, within {}",
                server,
                reason,
                Durations.format(grace));
        Thread.ofVirtual().name("kubeloop-http-client-retired").start(() -> drain(old));
        if (closed) {
            close(); // closed meanwhile: the new client and the old one may have been missed
        }
        return true;
    }

    /**
     * True when {@code e} is the refusal of a request that picked {@code generation} just before it
     * was retired: such a request was never sent and may be sent again on {@link #current()}.
     */
    boolean refusedAsRetired(Generation generation, IOException e) {
        return current.get() != generation && !closed && REFUSED.equals(e.getMessage());
    }

    private void drain(HttpClient old) {
        try {
            if (!old.awaitTermination(grace)) {
                old.shutdownNow();
            }
        } catch (InterruptedException e) {
            old.shutdownNow();
        } finally {
            retiring.remove(old);
        }
    }

    /** Shuts down the current client and every retired one at once; in-flight requests fail. Idempotent. */
    @Override
    public void close() {
        closed = true;
        current.get().client().shutdownNow();
        retiring.forEach(HttpClient::shutdownNow);
    }
}
