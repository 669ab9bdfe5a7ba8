package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Model-based properties of the delaying work queue: random schedules of add, addAfter, ticker
 * steps, get, done and shutDown, checked against a plain reference model (client-go's three sets
 * plus a map of waiting items).
 */
class WorkQueueModelPropertyTest {

    private static final int ITEMS = 5;

    /** One operation of a schedule. */
    sealed interface Op permits Add, AddAfter, Step, Get, Done, ShutDown {}

    record Add(int item) implements Op {}

    record AddAfter(int item, int delayMs) implements Op {}

    record Step(int ms) implements Op {}

    record Get() implements Op {}

    record Done(int index) implements Op {}

    record ShutDown() implements Op {}

    @Provide
    Arbitrary<Op> ops() {
        Arbitrary<Integer> item = Arbitraries.integers().between(0, ITEMS - 1);
        return Arbitraries.frequencyOf(
                Tuple.of(6, item.map(Add::new)),
                Tuple.of(
                        4,
                        Combinators.combine(item, Arbitraries.integers().between(-1, 30))
                                .as(AddAfter::new)),
                Tuple.of(3, Arbitraries.integers().between(0, 20).map(Step::new)),
                Tuple.of(6, Arbitraries.just(new Get())),
                Tuple.of(5, Arbitraries.integers().between(0, 3).map(Done::new)),
                Tuple.of(1, Arbitraries.just(new ShutDown())));
    }

    /** client-go's queue as three plain collections, plus the delaying queue's waiting map. */
    static final class Model {
        final ArrayDeque<Integer> queue = new ArrayDeque<>();
        final Set<Integer> dirty = new HashSet<>();
        final Set<Integer> processing = new HashSet<>();
        final Map<Integer, Long> waiting = new HashMap<>();
        long now;
        boolean shuttingDown;

        void add(int x) {
            if (shuttingDown || dirty.contains(x)) {
                return;
            }
            dirty.add(x);
            if (!processing.contains(x)) {
                queue.addLast(x);
            }
        }

        Integer get() {
            Integer x = queue.pollFirst();
            if (x != null) {
                processing.add(x);
                dirty.remove(x);
            }
            return x;
        }

        void done(int x) {
            if (processing.remove(x) && dirty.contains(x)) {
                queue.addLast(x);
            }
        }

        void addAfter(int x, long delayNanos) {
            if (shuttingDown) {
                return;
            }
            if (delayNanos <= 0) {
                add(x);
            } else {
                waiting.merge(x, now + delayNanos, Math::min);
            }
        }

        void step(long nanos) {
            now += nanos;
            List<Map.Entry<Integer, Long>> due = new ArrayList<>();
            for (var e : waiting.entrySet()) {
                if (e.getValue() <= now) {
                    due.add(e);
                }
            }
            due.sort(Comparator.comparingLong(Map.Entry::getValue));
            for (var e : due) {
                waiting.remove(e.getKey());
                add(e.getKey());
            }
        }

        void shutDown() {
            shuttingDown = true;
            waiting.clear();
        }
    }

    @Property(tries = 300)
    void delayingQueueBehavesLikeTheReferenceModel(@ForAll @Size(max = 60) List<@From("ops") Op> schedule) {
        FakeTicker ticker = new FakeTicker();
        DefaultDelayingQueue<Integer> real = (DefaultDelayingQueue<Integer>) DelayingQueue.<Integer>create(
                WorkQueueOptions.builder().ticker(ticker).build());
        Model model = new Model();
        List<Integer> held = new ArrayList<>();
        try {
            for (Op op : schedule) {
                switch (op) {
                    case Add a -> {
                        real.add(a.item());
                        model.add(a.item());
                    }
                    case AddAfter a -> {
                        real.addAfter(a.item(), Duration.ofMillis(a.delayMs()));
                        model.addAfter(a.item(), Duration.ofMillis(a.delayMs()).toNanos());
                        // A nanosecond between calls keeps ready times distinct, so their order is defined.
                        ticker.step(Duration.ofNanos(1));
                        model.step(1);
                    }
                    case Step s -> {
                        ticker.step(Duration.ofMillis(s.ms()));
                        model.step(Duration.ofMillis(s.ms()).toNanos());
                    }
                    case Get g -> {
                        if (model.queue.isEmpty() && !model.shuttingDown) {
                            continue; // would block: nothing to compare
                        }
                        Integer expected = model.get();
                        awaitLoop(real, model);
                        Optional<Integer> actual = real.queue().tryGet();
                        if (expected == null) {
                            assertThat(real.get()).isEmpty();
                        } else {
                            assertThat(actual).as("after %s", schedule).contains(expected);
                            held.add(expected);
                        }
                    }
                    case Done d -> {
                        if (held.isEmpty()) {
                            real.done(d.index()); // not held: both ignore it
                            model.done(d.index());
                            continue;
                        }
                        int x = held.remove(d.index() % held.size());
                        real.done(x);
                        model.done(x);
                    }
                    case ShutDown s -> {
                        real.shutDown();
                        model.shutDown();
                    }
                }
                awaitLoop(real, model);
                assertThat(real.len()).as("len after %s", op).isEqualTo(model.queue.size());
                assertThat(real.queue().inFlight()).isEqualTo(model.processing.size());
            }
        } finally {
            real.shutDown();
        }
    }

    /** Waits until the waiting loop has moved every due item (its heap matches the model's map). */
    private static void awaitLoop(DefaultDelayingQueue<Integer> real, Model model) {
        await().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .atMost(Duration.ofSeconds(5))
                .until(() -> real.waitingCount() == model.waiting.size());
    }

    /**
     * Producers (random add, addAfter with delays from -1 to 5 ms, ticker steps, now and then a
     * shutDown) and workers (blocking {@code get}; while processing, sometimes an add of the held
     * item; then {@code done}) run at once on platform threads released together. The reference
     * model's per-item invariants are checked on the real history: no item is held by two workers at
     * once; no item is handed out again unless an add of it that had not completed when its previous
     * {@code get} began was started since; and at the end (everything delayed fired, the queue
     * drained) every add that began after an item's last hand-out — and, when shut down, completed
     * before the shutdown — was followed by another hand-out.
     */
    @Property(tries = 150)
    void concurrentSchedulesNeverDoubleHandOutNorLoseAnItem(
            @ForAll @IntRange(min = 1, max = 3) int producers,
            @ForAll @IntRange(min = 1, max = 3) int workers,
            @ForAll long seed)
            throws Exception {
        FakeTicker ticker = new FakeTicker();
        DefaultDelayingQueue<Integer> real = (DefaultDelayingQueue<Integer>) DelayingQueue.<Integer>create(
                WorkQueueOptions.builder().ticker(ticker).build());
        History history = new History();
        CountDownLatch go = new CountDownLatch(1);
        SplittableRandom root = new SplittableRandom(seed);
        List<Thread> producing = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            SplittableRandom random = root.split();
            producing.add(Thread.ofPlatform().start(() -> {
                awaitQuietly(go);
                for (int i = 0; i < 120; i++) {
                    int x = random.nextInt(ITEMS);
                    switch (random.nextInt(10)) {
                        case 0, 1, 2, 3 -> history.add(real, x);
                        case 4, 5, 6 -> {
                            int delay = random.nextInt(7) - 1;
                            history.started.incrementAndGet(x);
                            real.addAfter(x, Duration.ofMillis(delay));
                            if (delay <= 0) {
                                history.completed.incrementAndGet(x);
                            }
                        }
                        case 7, 8 -> ticker.step(Duration.ofMillis(1 + random.nextInt(3)));
                        default -> {
                            if (random.nextInt(40) == 0 && history.completedAtShutDown.get() == null) {
                                history.completedAtShutDown.compareAndSet(null, snapshot(history.completed));
                                real.shutDown();
                            }
                        }
                    }
                }
            }));
        }
        List<Thread> working = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            SplittableRandom random = root.split();
            working.add(Thread.ofPlatform().start(() -> {
                awaitQuietly(go);
                for (; ; ) {
                    int[] before = snapshot(history.completed);
                    Optional<Integer> got = real.get();
                    if (got.isEmpty()) {
                        return;
                    }
                    int y = got.get();
                    history.handedOut(y, before);
                    if (random.nextInt(4) == 0) {
                        history.add(real, y); // added again while processing: dirty, handed out after done
                    }
                    history.holders.remove(y);
                    real.done(y);
                }
            }));
        }
        go.countDown();
        try {
            for (Thread t : producing) {
                assertThat(t.join(Duration.ofSeconds(10)))
                        .as("producer finished")
                        .isTrue();
            }
            if (history.completedAtShutDown.get() == null) {
                ticker.step(Duration.ofHours(1)); // fire everything delayed
                try {
                    await().pollDelay(Duration.ZERO)
                            .pollInterval(Duration.ofMillis(1))
                            .atMost(Duration.ofSeconds(5))
                            .until(() -> history.violation.get() != null
                                    || real.waitingCount() == 0
                                            && real.len() == 0
                                            && real.queue().inFlight() == 0);
                } catch (ConditionTimeoutException e) {
                    throw new AssertionError(
                            "the queue never became idle after the producers stopped: waiting " + real.waitingCount()
                                    + ", queued " + real.len() + ", in flight "
                                    + real.queue().inFlight(),
                            e);
                }
                assertThat(history.violation.get()).isNull();
                real.shutDown(); // the workers, idle in get, end
            }
            for (Thread t : working) {
                assertThat(t.join(Duration.ofSeconds(10)))
                        .as("worker ended after the shutdown")
                        .isTrue();
            }
            // After a shutdown, an item made dirty before it may be queued again by a done that came
            // after the last worker left; hand those out here.
            for (Optional<Integer> got = real.queue().tryGet();
                    got.isPresent();
                    got = real.queue().tryGet()) {
                int y = got.get();
                history.handedOut(y, snapshot(history.completed));
                history.holders.remove(y);
                real.done(y);
            }
            assertThat(history.violation.get()).isNull();
            assertThat(real.queue().inFlight()).isZero();
            int[] mustBeSeen = history.completedAtShutDown.get() != null
                    ? history.completedAtShutDown.get()
                    : snapshot(history.started);
            for (int y = 0; y < ITEMS; y++) {
                assertThat(mustBeSeen[y])
                        .as("item %d: adds that must have led to a hand-out", y)
                        .isLessThanOrEqualTo(history.startedAtLastHandOut[y]);
            }
        } finally {
            real.shutDown();
        }
    }

    /** What the threads of {@link #concurrentSchedulesNeverDoubleHandOutNorLoseAnItem} record. */
    private static final class History {
        final AtomicIntegerArray started = new AtomicIntegerArray(ITEMS); // adds begun (any kind)
        final AtomicIntegerArray completed = new AtomicIntegerArray(ITEMS); // immediate adds returned
        final int[] startedAtLastHandOut = new int[ITEMS]; // guarded by this
        final int[][] completedAtLastGetBegin = new int[ITEMS][]; // guarded by this
        final ConcurrentHashMap<Integer, Thread> holders = new ConcurrentHashMap<>();
        final AtomicReference<String> violation = new AtomicReference<>();
        final AtomicReference<int[]> completedAtShutDown = new AtomicReference<>();

        void add(DelayingQueue<Integer> queue, int x) {
            started.incrementAndGet(x);
            queue.add(x);
            completed.incrementAndGet(x);
        }

        /** Records that {@code y} was handed out by a get that began when {@code completed} was {@code before}. */
        void handedOut(int y, int[] before) {
            if (holders.putIfAbsent(y, Thread.currentThread()) != null) {
                violation.compareAndSet(null, "item " + y + " held by two workers");
            }
            synchronized (this) {
                int[] previous = completedAtLastGetBegin[y];
                if (previous != null && started.get(y) <= previous[y]) {
                    violation.compareAndSet(null, "item " + y + " handed out twice without a re-add");
                }
                completedAtLastGetBegin[y] = before;
                startedAtLastHandOut[y] = started.get(y);
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int[] snapshot(AtomicIntegerArray a) {
        int[] s = new int[a.length()];
        for (int i = 0; i < s.length; i++) {
            s[i] = a.get(i);
        }
        return s;
    }
}
