package io.kubeloop.controller.internal.endpoints;

import io.kubeloop.cache.InformerFactory;
import io.kubeloop.controller.endpoints.HealthCheck;
import io.kubeloop.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The readiness checks a {@link io.kubeloop.controller.Manager} offers over its informers: synced,
 * and still receiving. Its one job is to turn the informer factory's sync state, last errors and
 * silences into {@link HealthCheck}s that name what is wrong.
 *
 * <p>Invariants: a check fails while the manager has not started; it never changes the informers.
 *
 * <p><b>Thread safety:</b> immutable; the checks it makes may run on any thread at once, reading
 * the factory's thread-safe state and the {@code started} flag as the supplier gives it.
 */
public final class InformerHealthChecks {

    /** How long an informer's list or watch may fail before {@link #receiving} reports it. */
    public static final int FAILING_GRACE_SECONDS = 30;

    private final InformerFactory informers;
    private final BooleanSupplier started;

    /**
     * @param informers the manager's informers
     * @param started whether the manager started (read on every check)
     */
    public InformerHealthChecks(InformerFactory informers, BooleanSupplier started) {
        this.informers = Objects.requireNonNull(informers, "informers");
        this.started = Objects.requireNonNull(started, "started");
    }

    /** See {@link io.kubeloop.controller.ManagerEndpoints#informersSynced()}. */
    public HealthCheck synced() {
        return () -> {
            if (!started.getAsBoolean()) {
                throw new IllegalStateException("the manager has not started");
            }
            var errors = informers.syncErrors();
            List<String> unsynced = informers.waitForCacheSync(Duration.ZERO).entrySet().stream()
                    .filter(e -> !e.getValue())
                    .map(e -> e.getKey().resource()
                            + (errors.containsKey(e.getKey())
                                    ? " (" + errors.get(e.getKey()).getMessage() + ")"
                                    : ""))
                    .toList();
            if (!unsynced.isEmpty()) {
                throw new IllegalStateException("informers not synced: " + unsynced);
            }
        };
    }

    /** See {@link io.kubeloop.controller.ManagerEndpoints#informersReceiving(Duration)}. */
    public HealthCheck receiving(Duration maxSilence) {
        if (maxSilence.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("maxSilence must be at least a minute (the bookmark interval), got "
                    + Durations.format(maxSilence));
        }
        HealthCheck synced = synced();
        return () -> {
            synced.check();
            List<String> stale = new ArrayList<>();
            informers.startedInformers().forEach((key, informer) -> {
                var error = informer.lastSyncError();
                var silence = informer.sinceLastReceived();
                if (error.isPresent() && silence.toSeconds() >= FAILING_GRACE_SECONDS) {
                    stale.add(key.resource() + " (" + error.get().getMessage() + ")");
                } else if (silence.compareTo(maxSilence) > 0) {
                    stale.add(key.resource() + " (nothing received for "
                            + Durations.format(Duration.ofSeconds(silence.toSeconds())) + ")");
                }
            });
            if (!stale.isEmpty()) {
                throw new IllegalStateException("informers not receiving: " + stale);
            }
        };
    }
}
