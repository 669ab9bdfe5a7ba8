package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.time.testing.FakeTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

@Timeout(30)
class ControllerTest {

    private static final Request FOO = Request.of("default", "foo");

    private final FakeTicker ticker = new FakeTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ScriptedReconciler reconciler = new ScriptedReconciler();
    private Controller controller;

    @AfterEach
    void close() {
        if (controller != null) {
            controller.close();
        }
    }

    /** Answers each call with the next scripted outcome (done when the script is empty); records calls. */
    static final class ScriptedReconciler implements Reconciler {
        interface Outcome {
            Result run() throws Exception;
        }

        final Deque<Outcome> script = new ArrayDeque<>();
        final List<Request> calls = new CopyOnWriteArrayList<>();

        synchronized ScriptedReconciler then(Outcome outcome) {
            script.add(outcome);
            return this;
        }

        @Override
        public Result reconcile(Request request, ReconcileContext context) throws Exception {
            calls.add(request);
            Outcome next;
            synchronized (this) {
                next = script.poll();
            }
            return next == null ? Result.done() : next.run();
        }
    }

    private Controller start(ControllerOptions.Builder options) {
        controller = Controller.create(
                reconciler, options.ticker(ticker).meterRegistry(registry).build());
        controller.start();
        return controller;
    }

    private void awaitCalls(int n) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> reconciler.calls.size() >= n);
    }

    /** Waits until the queue holds nothing waiting, queued or in flight (everything settled). */
    private void awaitIdle() {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> controller.queue().len() == 0 && activeWorkers() == 0);
    }

    private double count(String name, String... tags) {
        return registry.get(name).tag("controller", "test").tags(tags).counter().count();
    }

    private double activeWorkers() {
        return registry.get("controller_runtime.active_workers")
                .tag("controller", "test")
                .gauge()
                .value();
    }

    @Test
    void anErrorRequeuesWithGrowingBackOffAndSuccessForgetsTheFailures() {
        reconciler
                .then(() -> {
                    throw new IllegalStateException("boom 1");
                })
                .then(() -> {
                    throw new IOException("boom 2");
                });
        start(ControllerOptions.builder("test"));
        controller.queue().add(FOO);

        awaitCalls(1);
        awaitIdle();
        assertThat(controller.queue().numRequeues(FOO)).isEqualTo(1);
        ticker.step(Duration.ofMillis(4));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        assertThat(reconciler.calls).as("the first back-off is 5 ms").hasSize(1);
        ticker.step(Duration.ofMillis(1));
        awaitCalls(2);
        awaitIdle();
        assertThat(controller.queue().numRequeues(FOO)).isEqualTo(2);

        ticker.step(Duration.ofMillis(9));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        assertThat(reconciler.calls).as("the second back-off is 10 ms").hasSize(2);
        ticker.step(Duration.ofMillis(1));
        awaitCalls(3);
        awaitIdle();

        assertThat(controller.queue().numRequeues(FOO))
                .as("success forgets the failures")
                .isZero();
        assertThat(count("controller_runtime.reconcile", "result", "error")).isEqualTo(2);
        assertThat(count("controller_runtime.reconcile", "result", "success")).isEqualTo(1);
        assertThat(count("controller_runtime.reconcile_errors")).isEqualTo(2);
    }

    @Test
    void aConflictIsRequeuedWithBackOffCountedAsAnErrorAndLoggedAtDebugOnly() {
        ConflictException conflict = new ConflictException(Status.failure(
                409,
                "Conflict",
                "Operation cannot be fulfilled on foos.samplecontroller.k8s.io \"foo\": the object has been modified; "
                        + "please apply your changes to the latest version and try again"));
        reconciler
                .then(() -> {
                    throw conflict;
                })
                .then(() -> {
                    throw new IllegalStateException("status update failed", conflict); // wrapped
                });
        start(ControllerOptions.builder("test"));
        List<RecordingLogProvider.LogEvent> events;
        try (RecordingLogProvider.Capture logs = RecordingLogProvider.capture()) {
            controller.queue().add(FOO);
            awaitCalls(1);
            awaitIdle();
            assertThat(controller.queue().numRequeues(FOO))
                    .as("requeued with rate limiting")
                    .isEqualTo(1);
            assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
            ticker.step(Duration.ofMillis(5));
            awaitCalls(2);
            awaitIdle();
            assertThat(controller.queue().numRequeues(FOO)).isEqualTo(2);
            assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
            ticker.step(Duration.ofMillis(10));
            awaitCalls(3);
            awaitIdle();
            events = logs.events();
        }
        assertThat(count("controller_runtime.reconcile_errors"))
                .as("still counted as errors")
                .isEqualTo(2);
        assertThat(count("controller_runtime.reconcile", "result", "error")).isEqualTo(2);
        assertThat(events).as("nothing above DEBUG").noneMatch(e -> e.level().toInt() > Level.DEBUG.toInt());
        assertThat(events)
                .filteredOn(e -> e.message().contains("conflict"))
                .hasSize(2)
                .allMatch(e -> e.level() == Level.DEBUG && e.message().contains("requeued"));
    }

    @Test
    void anApiErrorOtherThanAConflictIsStillLoggedAsAnError() {
        reconciler.then(() -> {
            throw new ForbiddenException(Status.failure(403, "Forbidden", "no access"));
        });
        start(ControllerOptions.builder("test"));
        List<RecordingLogProvider.LogEvent> events;
        try (RecordingLogProvider.Capture logs = RecordingLogProvider.capture()) {
            controller.queue().add(FOO);
            awaitCalls(1);
            awaitIdle();
            events = logs.events();
        }
        assertThat(events)
                .filteredOn(e -> e.level() == Level.ERROR)
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("reconcile of", "Forbidden", "requeued"));
    }

    @Test
    void requeueAfterRunsAgainAfterTheDelayWithTheFailuresForgotten() {
        reconciler
                .then(() -> {
                    throw new IllegalStateException("first attempt fails");
                })
                .then(() -> Result.requeueAfter(Duration.ofSeconds(5)));
        start(ControllerOptions.builder("test"));
        controller.queue().add(FOO);
        awaitCalls(1);
        awaitIdle();
        ticker.step(Duration.ofMillis(5));
        awaitCalls(2);
        awaitIdle();
        assertThat(controller.queue().numRequeues(FOO))
                .as("requeueAfter forgets")
                .isZero();

        ticker.step(Duration.ofMillis(4_999));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        assertThat(reconciler.calls).as("not before 5 s").hasSize(2);
        ticker.step(Duration.ofMillis(1));
        awaitCalls(3);
        awaitIdle();
        assertThat(count("controller_runtime.reconcile", "result", "requeue_after"))
                .isEqualTo(1);
    }

    @Test
    void theRequeueSeriesExistsAtZeroAsControllerRuntimesDoes() {
        reconciler.then(Result::done);
        start(ControllerOptions.builder("test"));
        controller.queue().add(FOO);
        awaitCalls(1);
        awaitIdle();
        assertThat(count("controller_runtime.reconcile", "result", "success")).isEqualTo(1);
        assertThat(count("controller_runtime.reconcile", "result", "requeue"))
                .as("a Result cannot ask for a rate-limited requeue; the series is there for dashboards")
                .isZero();
    }

    @Test
    void aTerminalFailureIsNotRequeuedEvenWhenWrapped() {
        reconciler
                .then(() -> {
                    throw new TerminalException("spec.replicas must not be negative");
                })
                .then(() -> {
                    throw new IllegalStateException("wrapped", new TerminalException("bad spec"));
                });
        start(ControllerOptions.builder("test"));
        controller.queue().add(FOO);
        awaitCalls(1);
        awaitIdle();
        ticker.step(Duration.ofHours(1));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        assertThat(reconciler.calls).as("not retried").hasSize(1);

        controller.queue().add(FOO); // an event brings it back
        awaitCalls(2);
        awaitIdle();
        ticker.step(Duration.ofHours(1));
        assertThat(ticker.awaitWaiters(1, Duration.ofSeconds(5))).isTrue();
        assertThat(reconciler.calls).hasSize(2);
        assertThat(count("controller_runtime.terminal_reconcile_errors")).isEqualTo(2);
        assertThat(count("controller_runtime.reconcile_errors")).isEqualTo(2);
    }

    @Test
    void anErrorThrownByTheReconcilerIsRecoveredCountedAsAPanicAndRequeued() {
        reconciler.then(() -> {
            throw new AssertionError("a bug");
        });
        start(ControllerOptions.builder("test"));
        controller.queue().add(FOO);
        awaitCalls(1);
        awaitIdle();
        assertThat(count("controller_runtime.reconcile_panics")).isEqualTo(1);
        ticker.step(Duration.ofMillis(5));
        awaitCalls(2);
        assertThat(controller.failure()).isEmpty();
    }

    @Test
    void withRecoverPanicOffAnErrorStopsTheControllerAndIsReportedOnlyThroughFailure() {
        AssertionError bug = new AssertionError("a bug");
        reconciler.then(() -> {
            throw bug;
        });
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        // worker threads are virtual: an error escaping one goes to the default handler
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        try {
            start(ControllerOptions.builder("test").maxConcurrentReconciles(2).recoverPanic(false));
            controller.queue().add(FOO);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(1))
                    .dontCatchUncaughtExceptions()
                    .until(() -> controller.failure().isPresent());

            assertThat(controller.failure()).containsSame(bug);
            assertThat(controller.queue().isShuttingDown())
                    .as("stopping is visible with the failure")
                    .isTrue();
            controller.queue().add(Request.of("default", "bar"));
            controller.close(); // joins the workers: an error escaping one has reached the handler by now
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        assertThat(reconciler.calls).containsExactly(FOO);
        assertThat(uncaught)
                .as("the error is not rethrown out of the worker thread")
                .isEmpty();
    }

    @Test
    void failureListenersAreToldOnceWhetherAddedBeforeOrAfterTheFailure() {
        AssertionError bug = new AssertionError("a bug");
        reconciler.then(() -> {
            throw bug;
        });
        List<Throwable> before = new CopyOnWriteArrayList<>();
        controller = Controller.create(
                reconciler,
                ControllerOptions.builder("test")
                        .recoverPanic(false)
                        .ticker(ticker)
                        .meterRegistry(registry)
                        .build());
        controller.onFailure(before::add);
        controller.start();
        controller.queue().add(FOO);
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> !before.isEmpty());

        List<Throwable> after = new CopyOnWriteArrayList<>();
        controller.onFailure(after::add);
        assertThat(after).as("told at once").containsExactly(bug);
        controller.close();
        assertThat(before).containsExactly(bug);
    }

    @Test
    void aNullResultIsAnErrorThatNamesTheMistake() {
        reconciler.then(() -> null);
        start(ControllerOptions.builder("test"));
        controller.queue().add(FOO);
        awaitCalls(1);
        awaitIdle();
        assertThat(count("controller_runtime.reconcile_errors")).isEqualTo(1);
        assertThat(controller.queue().numRequeues(FOO)).isEqualTo(1);
    }

    @Test
    void fourWorkersOverAHundredHotKeysNeverReconcileOneKeyTwiceAtOnce() throws Exception {
        Map<Request, AtomicInteger> running = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger maxConcurrent = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        Reconciler checking = (request, context) -> {
            calls.incrementAndGet();
            int now = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            if (running.computeIfAbsent(request, r -> new AtomicInteger()).incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            Thread.sleep(0, 200_000);
            running.get(request).decrementAndGet();
            concurrent.decrementAndGet();
            return Result.done();
        };
        controller = Controller.create(
                checking,
                ControllerOptions.builder("test")
                        .maxConcurrentReconciles(4)
                        .ticker(ticker)
                        .meterRegistry(registry)
                        .build());
        controller.start();
        List<Thread> producers = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int p = 0; p < 4; p++) {
            int seed = p;
            producers.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < 5_000; i++) {
                    controller.queue().add(Request.of("ns", "key-" + random.nextInt(100)));
                }
            }));
        }
        go.countDown();
        for (Thread t : producers) {
            t.join();
        }
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> controller.queue().len() == 0 && concurrent.get() == 0);

        assertThat(overlaps.get()).as("reconciles of one key that overlapped").isZero();
        assertThat(maxConcurrent.get())
                .as("at most four at once")
                .isLessThanOrEqualTo(4)
                .isGreaterThan(1);
        assertThat(calls.get()).as("adds collapse while a key waits").isBetween(100, 20_000);
        assertThat(registry.get("controller_runtime.max_concurrent_reconciles")
                        .tag("controller", "test")
                        .gauge()
                        .value())
                .isEqualTo(4);
    }

    @Test
    void requestsAddedBeforeStartWaitForTheWorkers() {
        controller = Controller.create(
                reconciler, ControllerOptions.builder("test").ticker(ticker).build());
        controller.queue().add(FOO);
        controller.queue().add(FOO);

        controller.start();

        awaitCalls(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> controller.queue().len() == 0);
        assertThat(reconciler.calls).containsExactly(FOO);
    }

    @Test
    void aControllerStartsOnceAndNeverAfterItStopped() {
        start(ControllerOptions.builder("test"));
        assertThatThrownBy(controller::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("controller test cannot start: it was already started");
        controller.close();
        assertThatThrownBy(controller::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("controller test cannot start: it has stopped");

        Controller never =
                Controller.create(reconciler, ControllerOptions.builder("never").build());
        never.close();
        never.close();
        assertThatThrownBy(never::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeCancelsTheReconcileInProgressWaitsForItAndDropsTheQueuedRequests() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        AtomicInteger interrupts = new AtomicInteger();
        List<ReconcileContext> contexts = new CopyOnWriteArrayList<>();
        Reconciler slow = (request, context) -> {
            if (request.equals(FOO)) {
                contexts.add(context);
                entered.countDown();
                for (; ; ) { // finishes its work whatever happens
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupts.incrementAndGet();
                    }
                }
            }
            finished.incrementAndGet();
            return Result.done();
        };
        controller = Controller.create(
                slow, ControllerOptions.builder("test").ticker(ticker).build());
        controller.start();
        controller.queue().add(FOO);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(contexts.getFirst().cancellation().isCancelled()).isFalse();
        controller.queue().add(Request.of("default", "queued"));

        Thread closing = Thread.ofPlatform().start(controller::close);
        await().atMost(Duration.ofSeconds(5)).until(() -> controller.queue().isShuttingDown());
        await().atMost(Duration.ofSeconds(5)).until(() -> interrupts.get() == 1);
        assertThat(contexts.getFirst().cancellation().reason()).contains("controller test stopped");
        assertThat(closing.join(Duration.ofMillis(100)))
                .as("close waits for the reconcile")
                .isFalse();
        release.countDown();
        assertThat(closing.join(Duration.ofSeconds(10))).isTrue();

        assertThat(finished.get()).as("the queued request was dropped").isEqualTo(1);
        controller.queue().add(FOO);
        assertThat(controller.queue().len()).as("adds after close are ignored").isZero();
    }

    @Test
    void aReconcileEndedByTheCancellationIsNeitherRetriedNorCountedAsAnError() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        controller = Controller.create(
                (request, context) -> {
                    calls.incrementAndGet();
                    entered.countDown();
                    never.await(); // interrupted when the controller stops
                    return Result.done();
                },
                ControllerOptions.builder("test")
                        .ticker(ticker)
                        .meterRegistry(registry)
                        .build());
        controller.start();
        controller.queue().add(FOO);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        Thread closing = Thread.ofPlatform().start(controller::close);

        assertThat(closing.join(Duration.ofSeconds(10)))
                .as("close ends the blocked reconcile")
                .isTrue();
        assertThat(calls.get()).isEqualTo(1);
        assertThat(registry.get("controller_runtime.reconcile_errors").counter().count())
                .as("not counted as an error")
                .isZero();
    }

    @Test
    void metricsAreExportedUnderControllerRuntimeNames() {
        var prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        controller = Controller.create(
                reconciler,
                ControllerOptions.builder("foo-controller")
                        .ticker(ticker)
                        .maxConcurrentReconciles(3)
                        .meterRegistry(prometheus)
                        .build());
        controller.start();
        controller.queue().add(FOO);
        awaitCalls(1);
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () -> prometheus
                                .scrape()
                                .contains(
                                        "controller_runtime_reconcile_total{controller=\"foo-controller\",result=\"success\"} 1.0"));

        String scrape = prometheus.scrape();
        assertThat(scrape)
                .contains(
                        "controller_runtime_reconcile_total{controller=\"foo-controller\",result=\"error\"} 0.0",
                        "controller_runtime_reconcile_errors_total{controller=\"foo-controller\"} 0.0",
                        "controller_runtime_terminal_reconcile_errors_total{controller=\"foo-controller\"} 0.0",
                        "controller_runtime_reconcile_panics_total{controller=\"foo-controller\"} 0.0",
                        "controller_runtime_reconcile_time_seconds_bucket{controller=\"foo-controller\",le=\"0.005\"}",
                        "controller_runtime_max_concurrent_reconciles{controller=\"foo-controller\"} 3.0",
                        "controller_runtime_active_workers{controller=\"foo-controller\"}",
                        "workqueue_adds_total{name=\"foo-controller\"} 1.0");
    }

    @Test
    void optionsRejectMistakesWithAClearMessage() {
        assertThatThrownBy(() -> ControllerOptions.builder(" ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a controller needs a name");
        assertThatThrownBy(() -> ControllerOptions.builder("c")
                        .maxConcurrentReconciles(0)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConcurrentReconciles must be at least 1, got 0");
        assertThatThrownBy(() -> Result.requeueAfter(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive delay");
    }
}
