package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Load on the embedded server with default options: many stored objects, many watchers of all of them,
 * and a few watchers that stop reading. Writers are never held up; every reading watcher gets every
 * update exactly once, in resourceVersion order — when it falls a whole buffer (1,000 events) behind, the
 * server ends its watch, as kube-apiserver ends unresponsive watchers, and it watches again from the last
 * resourceVersion it saw, as a reflector does; each stalled watch is ended once its buffer is full while
 * its client still holds the connection. Every ended watch is counted in
 * {@code apiserver_terminated_watchers_total}.
 *
 * <p>CI runs a small size; {@code tools/reliability/run --load} runs 10,000 objects and 1,000 watchers
 * ({@code -Dkubeloop.load.objects}, {@code .watchers}, {@code .stalled}, {@code .updates}).
 */
@Timeout(900)
class WatchLoadTest {

    private static final int OBJECTS = Integer.getInteger("kubeloop.load.objects", 2_500);
    private static final int WATCHERS = Integer.getInteger("kubeloop.load.watchers", 50);
    private static final int STALLED = Integer.getInteger("kubeloop.load.stalled", 2);
    /** More than a watcher's buffer, so that every stalled watch overflows. */
    private static final int UPDATES = Integer.getInteger("kubeloop.load.updates", 1_500);

    private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");

    private final EmbeddedApiServer server = EmbeddedApiServer.start();
    private final RawHttp http = new RawHttp(server);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void everyReadingWatcherGetsEveryUpdateOnceInOrderWhileStalledWatchersAreEndedAndHoldUpNoWriter() throws Exception {
        String ns = http.newNamespace("load");
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        String blob = "x".repeat(2_000);
        long t0 = System.nanoTime();
        inParallel(8, OBJECTS, i -> {
            HttpResponse<String> r = http.createConfigMap(ns, "cm-" + i, "{\"blob\":\"" + blob + "\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        });
        double createSeconds = (System.nanoTime() - t0) / 1e9;
        Matcher listRv = RESOURCE_VERSION.matcher(http.get(path + "?limit=1").body());
        assertThat(listRv.find()).isTrue();
        String from = listRv.group(1);
        int before = http.registeredWatchers("configmaps");

        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Future<Integer>> readers = new ArrayList<>();
        List<StalledWatch> stalled = new ArrayList<>();
        try (ExecutorService readerThreads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int w = 0; w < WATCHERS; w++) {
                RawHttp.Lines watch = http.watch(path + "?watch=1&resourceVersion=" + from);
                int id = w;
                readers.add(readerThreads.submit(() -> read(id, path, from, watch, problems)));
            }
            for (int s = 0; s < STALLED; s++) {
                stalled.add(StalledWatch.open(server, path + "?watch=1&resourceVersion=0"));
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> http.registeredWatchers("configmaps") == before + WATCHERS + STALLED);

            long w0 = System.nanoTime();
            inParallel(8, UPDATES, i -> {
                HttpResponse<String> r = http.patch(
                        path + "/cm-" + (i % OBJECTS),
                        "application/merge-patch+json",
                        "{\"data\":{\"update\":\"" + i + "\"}}");
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            });
            double writeSeconds = (System.nanoTime() - w0) / 1e9;
            int resumes = 0;
            int resumedWatchers = 0;
            for (Future<Integer> r : readers) {
                int n = r.get(600, TimeUnit.SECONDS);
                resumes += n;
                resumedWatchers += n > 0 ? 1 : 0;
            }
            double deliverSeconds = (System.nanoTime() - w0) / 1e9;
            assertThat(problems).isEmpty();

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> http.registeredWatchers("configmaps") == before + WATCHERS);
            // the stalled watches and every reading watch that fell a whole buffer behind
            assertThat(http.metric("apiserver_terminated_watchers_total{resource=\"configmaps\"}"))
                    .isEqualTo(STALLED + resumes);
            assertThat(stalled).allSatisfy(s -> assertThat(s.isOpen()).isTrue());

            System.gc();
            long heapMiB =
                    (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
            System.out.printf(
                    "WatchLoadTest: %,d objects created in %.1f s (%,.0f/s); %,d watchers of all of them and %d stalled; "
                            + "%,d updates acknowledged in %.1f s; all %,d deliveries, in order, within %.1f s of the first "
                            + "write (%,.0f/s); %d stalled watches ended by the server; %d reading watchers fell a "
                            + "whole buffer behind and resumed (%d times in all); test JVM heap after GC %,d MiB%n",
                    OBJECTS,
                    createSeconds,
                    OBJECTS / createSeconds,
                    WATCHERS,
                    STALLED,
                    UPDATES,
                    writeSeconds,
                    (long) WATCHERS * UPDATES,
                    deliverSeconds,
                    WATCHERS * (double) UPDATES / deliverSeconds,
                    STALLED,
                    resumedWatchers,
                    resumes,
                    heapMiB);
        } finally {
            for (StalledWatch s : stalled) {
                s.close();
            }
        }
    }

    /**
     * Reads one watcher's updates until it has seen every one, checking that resourceVersions only
     * increase; when the server ends its watch (it fell a whole buffer behind), it watches again from the
     * last resourceVersion it saw, as a reflector does. Returns how many times it had to.
     */
    private int read(int id, String path, String from, RawHttp.Lines first, ConcurrentLinkedQueue<String> problems) {
        RawHttp.Lines watch = first;
        int seen = 0;
        int resumed = 0;
        long last = Long.parseLong(from);
        try {
            BufferedReader in = reader(watch);
            while (seen < UPDATES) {
                String line = in.readLine();
                if (line == null) {
                    watch.close();
                    resumed++;
                    watch = http.watch(path + "?watch=1&resourceVersion=" + last);
                    in = reader(watch);
                    continue;
                }
                if (line.startsWith("{\"type\":\"BOOKMARK\"")) {
                    continue;
                }
                if (!line.startsWith("{\"type\":\"MODIFIED\"")) {
                    problems.add("watcher " + id + ": unexpected " + line.substring(0, Math.min(80, line.length())));
                    return resumed;
                }
                Matcher m = RESOURCE_VERSION.matcher(line);
                long rv = m.find() ? Long.parseLong(m.group(1)) : -1;
                if (rv <= last) {
                    problems.add("watcher " + id + ": resourceVersion " + rv + " after " + last);
                    return resumed;
                }
                last = rv;
                seen++;
            }
        } catch (Exception e) {
            problems.add("watcher " + id + " after " + seen + " events: " + e);
        } finally {
            watch.close();
        }
        return resumed;
    }

    /** Runs {@code task} for 0..{@code count}-1 on {@code threads} threads; rethrows the first failure. */
    private static void inParallel(int threads, int count, IntConsumer task) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> all = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                all.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        task.accept(i);
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
    }

    private static BufferedReader reader(RawHttp.Lines watch) {
        return new BufferedReader(new InputStreamReader(watch.response.body(), StandardCharsets.UTF_8));
    }
}
