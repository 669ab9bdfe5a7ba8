package io.kubeloop.client;

import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The client-side bounds of one {@link Watch}, so that a watch on a silent connection (half-open, or
 * behind a proxy or load balancer that stopped forwarding) ends instead of blocking its consumer
 * forever:
 * <ul>
 *   <li><b>Deadline</b>: the server ends a watch after its {@code timeoutSeconds}; one it has not ended
 *       by then plus {@link ClientOptions#watchTimeoutMargin()} never will. A watch without
 *       {@code timeoutSeconds} is given {@link #SERVER_MAX_DEFAULT_WATCH} instead (the longest an API
 *       server keeps such a watch by default). Counted from the response head.</li>
 *   <li><b>Idle timeout</b>, when the watch has one ({@link Limits#idleAfter}): the consumer waited
 *       for data that long without a single byte arriving. Time the consumer spends elsewhere does not
 *       count: a slow consumer is not a dead connection.</li>
 * </ul>
 * When a bound runs out the watchdog calls its expiry action, which closes the response body: that
 * also ends a read blocked in the consumer's thread, on either transport.
 *
 * <p><b>Cost.</b> One virtual thread per watch, asleep on the {@link Ticker} between checks (one
 * wake-up per idle timeout, or at the deadline). The consumer's side is {@link #watching}: per read of
 * a chunk of the body one clock reading and two plain stores; nothing per byte or per event.
 *
 * <p><b>Pauses.</b> A check that wakes more than {@value #PAUSE_MILLIS} ms later than planned means the
 * process (or this thread) was paused — a frozen JVM, a suspended VM or laptop — while bytes may have
 * been arriving: the idle time is then counted afresh from the wake-up. The deadline is not extended.
 *
 * <p><b>Thread safety.</b> {@link #watching}'s stream is read by the consumer thread only; the
 * watchdog thread reads what it records; {@link #stop()} may come from any thread and is idempotent.
 */
final class WatchWatchdog {

    /**
     * The deadline of a watch without {@code timeoutSeconds}, before the margin: API servers end such
     * a watch after a random time in [min, 2·min) of their minimum request timeout, 1800 s by default
     * (kube-apiserver's {@code --min-request-timeout}; kubeloop's embedded server likewise), so within
     * an hour.
     */
    static final Duration SERVER_MAX_DEFAULT_WATCH = Duration.ofHours(1);

    static final long PAUSE_MILLIS = 1000;
    private static final long PAUSE_NANOS = PAUSE_MILLIS * 1_000_000;
    /** Longer bounds are this (about 73 years), so that ticker arithmetic cannot overflow. */
    private static final long MAX_WAIT_NANOS = Long.MAX_VALUE / 4;
    /** {@link #waitingSince} when the consumer is not in a read. */
    private static final long NOT_WAITING = Long.MIN_VALUE;

    private static final VarHandle WAITING_SINCE;

    static {
        try {
            WAITING_SINCE = MethodHandles.lookup().findVarHandle(WatchWatchdog.class, "waitingSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The client-wide settings, from {@link ClientOptions}; immutable.
     *
     * @param ticker the clock of the checks
     * @param idleTimeout the idle timeout of watches that ask for bookmarks and set none; zero for none
     * @param timeoutMargin how long after its {@code timeoutSeconds} a watch is given up
     */
    record Limits(Ticker ticker, Duration idleTimeout, Duration timeoutMargin) {

        Limits {
            Objects.requireNonNull(ticker, "ticker");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            Objects.requireNonNull(timeoutMargin, "timeoutMargin");
        }

        static Limits of(ClientOptions options) {
            return new Limits(options.ticker(), options.watchIdleTimeout(), options.watchTimeoutMargin());
        }

        /** From the response head to the deadline of a watch with these options. */
        Duration deadlineAfter(ListOptions options) {
            Duration timeout = options.timeout();
            Duration server = timeout != null && timeout.isPositive()
                    ? Duration.ofSeconds(DefaultResourceClient.timeoutSeconds(timeout))
                    : SERVER_MAX_DEFAULT_WATCH;
            return server.plus(timeoutMargin);
        }

        /**
         * The idle timeout of a watch with these options: its own ({@link ListOptions#idleTimeout()}),
         * else the client's for a watch that asks for bookmarks (the server sends one about every
         * minute, so silence means a dead connection), else none (zero): without bookmarks a healthy
         * watch of a quiet collection is silent for its whole life.
         */
        Duration idleAfter(ListOptions options) {
            if (options.idleTimeout() != null) {
                return options.idleTimeout();
            }
            return options.allowWatchBookmarks() ? idleTimeout : Duration.ZERO;
        }
    }

    private final Ticker ticker;
    private final Duration deadlineAfter;
    private final long deadline;
    private final Duration idle;
    private final long idleNanos;
    private final BiConsumer<WatchTimeoutException.Kind, Duration> onExpiry;
    private volatile boolean stopped;
    private Thread thread;
    /** Ticker time at which the consumer's current read began; {@link #NOT_WAITING} between reads. Opaque access. */
    @SuppressWarnings("unused")
    private long waitingSince = NOT_WAITING;

    /**
     * @param deadlineAfter from now to the deadline
     * @param idle the idle timeout; zero for none
     * @param onExpiry called (on the watchdog's thread) with the bound and its length when one runs out;
     *        must close the body
     */
    WatchWatchdog(
            Ticker ticker,
            Duration deadlineAfter,
            Duration idle,
            BiConsumer<WatchTimeoutException.Kind, Duration> onExpiry) {
        this.ticker = ticker;
        this.deadlineAfter = deadlineAfter;
        this.deadline = ticker.nanoTime() + Math.min(saturatedNanos(deadlineAfter), MAX_WAIT_NANOS);
        this.idle = idle;
        this.idleNanos = idle.isPositive() ? Math.min(saturatedNanos(idle), MAX_WAIT_NANOS) : 0;
        this.onExpiry = onExpiry;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** Starts the checks. */
    void start() {
        thread = Thread.ofVirtual().name("kubeloop-watch-watchdog").start(this::run);
    }

    /** Ends the checks (the watch is over). Idempotent. */
    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
        }
    }

    /** {@code body} as the consumer must read it: every read is timed for the idle check. */
    InputStream watching(InputStream body) {
        return new TimedStream(body);
    }

    private void run() {
        long planned = ticker.nanoTime();
        long idleFrom = planned; // idle time counts from no earlier than this
        try {
            while (!stopped) {
                long now = ticker.nanoTime();
                if (now - planned > PAUSE_NANOS) {
                    idleFrom = now; // paused: what arrived meanwhile is unknown, so the idle time starts over
                }
                if (now - deadline >= 0) {
                    expire(WatchTimeoutException.Kind.DEADLINE, deadlineAfter);
                    return;
                }
                long next = deadline;
                if (idleNanos > 0) {
                    long since = (long) WAITING_SINCE.getOpaque(this);
                    long from = since == NOT_WAITING ? now : since - idleFrom > 0 ? since : idleFrom;
                    if (now - from >= idleNanos) {
                        expire(WatchTimeoutException.Kind.IDLE, idle);
                        return;
                    }
                    if (from + idleNanos - next < 0) {
                        next = from + idleNanos;
                    }
                }
                planned = next;
                ticker.sleep(Duration.ofNanos(next - now));
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    private void expire(WatchTimeoutException.Kind kind, Duration limit) {
        if (!stopped) {
            onExpiry.accept(kind, limit);
        }
    }

    /** The body, with the start of each read recorded. Read by the consumer thread only. */
    private final class TimedStream extends InputStream {

        private final InputStream in;

        TimedStream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            WAITING_SINCE.setOpaque(WatchWatchdog.this, ticker.nanoTime());
            try {
                return in.read();
            } finally {
                WAITING_SINCE.setOpaque(WatchWatchdog.this, NOT_WAITING);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            WAITING_SINCE.setOpaque(WatchWatchdog.this, ticker.nanoTime());
            try {
                return in.read(b, off, len);
            } finally {
                WAITING_SINCE.setOpaque(WatchWatchdog.this, NOT_WAITING);
            }
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
