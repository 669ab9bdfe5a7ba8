package io.kubeloop.controller.leader;

import io.kubeloop.client.KubeClient;
import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import io.kubeloop.time.internal.Waiters;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a Lease, as client-go's {@code leaderelection} package: of the candidates that
 * share a Lease, at most one believes it leads at any time (given clocks that run at the same rate),
 * and the others take over when it stops renewing.
 *
 * <p>The algorithm: every retry period (with jitter, [1, 2.2) × the period) a candidate reads the
 * Lease; none → it creates one naming itself; held by another whose claim is still valid → it waits;
 * else it writes itself in (optimistic concurrency on the resourceVersion decides between
 * candidates), counting a transition when the holder changes. A claim's validity is measured on the
 * candidate's own monotonic clock, from when it <em>saw</em> the Lease last change, plus the Lease's
 * duration — never from the holder's written {@code renewTime}, so clock skew between machines does
 * not matter. Every wait and reading of time is on the configuration's
 * {@link LeaderElectionOptions#ticker() ticker}, so a fake ticker drives acquisition, renewal and
 * expiry in tests. The leader renews every retry period; when no renewal succeeds for the renew deadline
 * it gives up: {@link LeaderCallbacks#onStoppedLeading()} runs and {@link #run()} returns. A renewal
 * whose request is still unanswered at the renew deadline counts as failed, whatever the client's
 * request timeout, so a leader on a silent connection stops leading before the lease can pass to
 * another candidate.
 *
 * <p><b>Thread safety:</b> {@link #run()} is called once, on one thread (or use {@link #start()});
 * {@link #stop()}, {@link #isLeader()} and {@link #leader()} may be called from any thread.
 */
public final class LeaderElector {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);

    private final LeaderElectionOptions config;
    private final LeaderCallbacks callbacks;
    private final LeaseLock lock;
    private final Ticker ticker;
    private volatile boolean stopped;
    /** The elector's thread while it waits between attempts; woken by {@link #stop()}. */
    private final Waiters waiting = new Waiters();

    private volatile boolean leading;
    private volatile String observedHolder = "";
    /**
     * The record as last seen, and when (monotonic); written by one attempt at a time (the elector's
     * thread or the renewal attempt it waits for), volatile because an attempt runs on a thread of
     * its own.
     */
    private volatile LeaderElectionRecord observed;

    private volatile long observedAt;
    private Thread thread;

    /**
     * An elector for one candidate.
     *
     * @param client the cluster holding the Lease
     * @param config the Lease and the timings
     * @param callbacks what to tell the owner
     */
    public LeaderElector(KubeClient client, LeaderElectionOptions config, LeaderCallbacks callbacks) {
        this.config = Objects.requireNonNull(config, "config");
        this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
        this.lock = new LeaseLock(Objects.requireNonNull(client, "client"), config.namespace(), config.name());
        this.ticker = config.ticker();
    }

    /**
     * Runs {@link #run()} on a new virtual thread named after the identity.
     *
     * @return the thread
     */
    public synchronized Thread start() {
        if (thread != null) {
            throw new IllegalStateException("leader elector " + config.identity() + " was already started");
        }
        thread = Thread.ofVirtual().name("leader-elector-" + config.identity()).start(this::run);
        return thread;
    }

    /**
     * Competes until this candidate leads, then renews until it loses the Lease or {@link #stop()} is
     * called; then calls {@link LeaderCallbacks#onStoppedLeading()} and returns (also when it never
     * led).
     */
    public void run() {
        try {
            if (acquire()) {
                renew();
            }
        } finally {
            boolean wasLeading = leading;
            leading = false;
            if (wasLeading && config.releaseOnStop() && isStopped()) {
                release();
            }
            callbacks.onStoppedLeading();
        }
    }

    /** Stops competing (or leading); {@link #run()} returns soon after. Idempotent. */
    public void stop() {
        stopped = true;
        waiting.wakeAll();
    }

    /** Whether this candidate leads now, as far as it knows. */
    public boolean isLeader() {
        return leading;
    }

    /** The holder the Lease named when this candidate last read it, if any. */
    public Optional<String> leader() {
        String h = observedHolder;
        return h.isEmpty() ? Optional.empty() : Optional.of(h);
    }

    private boolean isStopped() {
        return stopped;
    }

    /** Tries every retry period (jittered) until it holds the Lease; false when stopped first. */
    private boolean acquire() {
        while (!isStopped()) {
            if (tryAcquireOrRenew()) {
                leading = true;
                LOG.info("{}: acquired {}", config.identity(), lock.describe());
                Thread.ofVirtual().name("leader-started-" + config.identity()).start(callbacks::onStartedLeading);
                return true;
            }
            long jittered = (long) (config.retryPeriod().toNanos()
                    * (1 + ThreadLocalRandom.current().nextDouble() * 1.2));
            if (await(jittered)) {
                return false;
            }
        }
        return false;
    }

    /** Renews every retry period; returns when a renewal did not succeed within the renew deadline, or when stopped. */
    private void renew() {
        while (!isStopped()) {
            long deadline = ticker.nanoTime() + config.renewDeadline().toNanos();
            boolean renewed = false;
            while (!renewed) {
                renewed = tryRenewBy(deadline);
                if (renewed) {
                    break;
                }
                long left = deadline - ticker.nanoTime();
                if (left <= 0) {
                    LOG.warn(
                            "{}: failed to renew {} within {}; leadership lost",
                            config.identity(),
                            lock.describe(),
                            Durations.format(config.renewDeadline()));
                    return;
                }
                if (await(Math.min(left, config.retryPeriod().toNanos()))) {
                    return;
                }
            }
            if (await(config.retryPeriod().toNanos())) {
                return;
            }
        }
    }

    /**
     * One renewal attempt that counts as failed when it has not ended by {@code deadline} (ticker
     * nanos), as client-go bounds each attempt by a context that ends at the renew deadline: a Lease
     * request that hangs (a silent connection, a server that accepted and never answers) must not
     * keep this candidate believing it leads beyond the renew deadline, which is shorter than the
     * lease duration after which another candidate takes over. The attempt runs on a virtual
     * thread; one still running at the deadline is interrupted and its outcome ignored.
     */
    private boolean tryRenewBy(long deadline) {
        AtomicReference<Boolean> outcome = new AtomicReference<>();
        Thread attempt = Thread.ofVirtual()
                .name("leader-renew-" + config.identity())
                .start(() -> {
                    boolean renewed = false;
                    try {
                        renewed = tryAcquireOrRenew();
                    } finally {
                        outcome.set(renewed);
                        waiting.wakeAll();
                    }
                });
        try {
            waiting.awaitInterruptibly(ticker, deadline, () -> outcome.get() != null || isStopped());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
        }
        Boolean renewed = outcome.get();
        if (renewed == null) {
            attempt.interrupt();
            LOG.debug(
                    "{}: renewal of {} still without an answer at the renew deadline",
                    config.identity(),
                    lock.describe());
            return false;
        }
        return renewed;
    }

    /**
     * Waits up to {@code nanos} on the ticker; true when stopped meanwhile (or interrupted, which
     * counts as a stop).
     */
    private boolean await(long nanos) {
        try {
            return waiting.awaitInterruptibly(
                    ticker, Ticker.deadline(ticker.nanoTime(), Duration.ofNanos(nanos)), this::isStopped);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            return true;
        }
    }

    /** One attempt: true when this candidate holds the Lease afterwards. */
    private boolean tryAcquireOrRenew() {
        Instant now = ticker.instant();
        int durationSeconds = (int) Math.max(1, config.leaseDuration().toSeconds());
        try {
            Optional<LeaderElectionRecord> current = lock.get();
            if (current.isEmpty()) {
                LeaderElectionRecord mine = new LeaderElectionRecord(config.identity(), durationSeconds, now, now, 0);
                lock.create(mine);
                see(mine);
                return true;
            }
            LeaderElectionRecord seen = current.get();
            if (!seen.equals(observed)) {
                see(seen);
            }
            boolean mine = config.identity().equals(seen.holderIdentity());
            boolean heldByOther = !mine
                    && !seen.holderIdentity().isEmpty()
                    && ticker.nanoTime() - observedAt < TimeUnit.SECONDS.toNanos(seen.leaseDurationSeconds());
            if (heldByOther) {
                return false;
            }
            LeaderElectionRecord next = mine
                    ? new LeaderElectionRecord(
                            config.identity(), durationSeconds, seen.acquireTime(), now, seen.leaseTransitions())
                    : new LeaderElectionRecord(
                            config.identity(), durationSeconds, now, now, seen.leaseTransitions() + 1);
            lock.update(next);
            see(next);
            return true;
        } catch (RuntimeException e) {
            LOG.debug("{}: attempt on {} failed: {}", config.identity(), lock.describe(), e.toString());
            return false;
        }
    }

    private void see(LeaderElectionRecord record) {
        observed = record;
        observedAt = ticker.nanoTime();
        String holder = record.holderIdentity();
        if (!holder.equals(observedHolder)) {
            observedHolder = holder;
            if (!holder.isEmpty()) {
                Thread.ofVirtual().name("leader-new-" + config.identity()).start(() -> callbacks.onNewLeader(holder));
            }
        }
    }

    /** Hands the Lease back: holder "", duration 1 s (client-go's release). */
    private void release() {
        try {
            Optional<LeaderElectionRecord> current = lock.get();
            if (current.isPresent() && config.identity().equals(current.get().holderIdentity())) {
                Instant now = ticker.instant();
                lock.update(
                        new LeaderElectionRecord("", 1, now, now, current.get().leaseTransitions()));
                LOG.info("{}: released {}", config.identity(), lock.describe());
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: failed to release {}: {}", config.identity(), lock.describe(), e.toString());
        }
    }
}
