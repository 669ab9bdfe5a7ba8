package io.kubeloop.bench.race.floor;

import io.kubeloop.peers.race.RequestTally;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The sample-controller with no framework: two watches (Foos and Deployments in all namespaces, each
 * opened with its initial events and kept on a connection of its own), two maps of the few fields it
 * reconciles by ({@link Observed}), a {@link KeyQueue} and workers, each with its own kept-alive
 * HTTP/1.1 connection. A reconcile makes only the requests a correct operator must: the Deployment's
 * create when it is missing, one merge patch of its replicas when they differ, one merge patch of the
 * Foo's {@code status.availableReplicas} when it differs — no Events, no conflicts possible. What a write
 * answers goes into the maps at once (when newer than what the watch delivered), so the next reconcile
 * never acts on an older state than its own write.
 *
 * <p>Thread-safe: the maps are concurrent, a key is reconciled by one worker at a time.
 */
final class FloorOperator {

    private static final String FOOS = "/apis/samplecontroller.k8s.io/v1alpha1";
    private static final String JSON = "application/json";
    private static final String MERGE = "application/merge-patch+json";
    private static final String WATCH = "?watch=true&allowWatchBookmarks=true&sendInitialEvents=true"
            + "&resourceVersionMatch=NotOlderThan&resourceVersion=&timeoutSeconds=3600";

    private final Supplier<Http1Connection> connections;
    private final RequestTally tally;
    private final int workers;
    private final Map<String, Observed> foos = new ConcurrentHashMap<>();
    private final Map<String, Observed> deployments = new ConcurrentHashMap<>();
    private final KeyQueue queue = new KeyQueue();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor();
    private final CountDownLatch synced = new CountDownLatch(2);
    private final List<Thread> threads = new ArrayList<>();
    private final List<Http1Connection> open = new ArrayList<>();
    private volatile boolean stopped;

    FloorOperator(Supplier<Http1Connection> connections, RequestTally tally, int workers) {
        this.connections = connections;
        this.tally = tally;
        this.workers = workers;
    }

    /** Starts the watches and workers; returns once both watches delivered their initial events. */
    void start() throws InterruptedException {
        watch("foos", FOOS + "/foos" + WATCH, foos, foo -> queue.add(key(foo.namespace(), foo.name())));
        watch("deployments", "/apis/apps/v1/deployments" + WATCH, deployments, d -> {
            if ("Foo".equals(d.ownerKind())) {
                queue.add(key(d.namespace(), d.ownerName()));
            }
        });
        if (!synced.await(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("watches not synced within 2 minutes");
        }
        for (int i = 0; i < workers; i++) {
            Http1Connection c = connection();
            threads.add(Thread.ofPlatform().name("floor-worker-" + i).daemon().start(() -> work(c)));
        }
    }

    void stop() {
        stopped = true;
        queue.shutDown();
        retries.shutdownNow();
        synchronized (open) {
            open.forEach(Http1Connection::close);
        }
    }

    private Http1Connection connection() {
        Http1Connection c = connections.get();
        synchronized (open) {
            open.add(c);
        }
        return c;
    }

    private interface Changed {
        void changed(Observed o);
    }

    private void watch(String name, String target, Map<String, Observed> cache, Changed handler) {
        Http1Connection c = connection();
        Thread.ofPlatform().name("floor-watch-" + name).daemon().start(() -> {
            boolean first = true;
            while (!stopped) {
                try {
                    tally.record("GET", target);
                    boolean[] sent = {!first};
                    c.stream(target, (b, from, length) -> {
                        Observed.Event e = Observed.event(b, from, length);
                        Observed o = e.object();
                        switch (e.type()) {
                            case "ADDED", "MODIFIED" -> {
                                if (newer(cache, o)) {
                                    handler.changed(o);
                                }
                            }
                            case "DELETED" -> {
                                cache.remove(key(o.namespace(), o.name()));
                                handler.changed(o);
                            }
                            case "BOOKMARK" -> {
                                if (e.initialEventsEnd() && !sent[0]) {
                                    sent[0] = true;
                                    synced.countDown();
                                }
                            }
                            default -> throw new IOException("watch event " + e.type());
                        }
                    });
                    first = false;
                } catch (IOException | RuntimeException e) {
                    if (!stopped) {
                        System.err.println("floor: watch " + name + " failed, reopening: " + e);
                        c.close();
                    }
                }
            }
        });
    }

    /** Puts {@code o} unless the map holds a newer version; true when it did. */
    private static boolean newer(Map<String, Observed> cache, Observed o) {
        String k = key(o.namespace(), o.name());
        boolean[] put = {false};
        cache.compute(k, (key, old) -> {
            if (old == null || old.resourceVersion() < o.resourceVersion()) {
                put[0] = true;
                return o;
            }
            return old;
        });
        return put[0];
    }

    private void work(Http1Connection c) {
        try {
            for (String key = queue.take(); key != null; key = queue.take()) {
                try {
                    if (!reconcile(c, key)) {
                        retry(key);
                    }
                } catch (IOException | RuntimeException e) {
                    if (!stopped) {
                        System.err.println("floor: reconcile " + key + " failed: " + e);
                        retry(key);
                    }
                } finally {
                    queue.done(key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void retry(String key) {
        if (!stopped) {
            retries.schedule(() -> queue.add(key), 100, TimeUnit.MILLISECONDS);
        }
    }

    /** One sync of a Foo; false when it should be retried. */
    private boolean reconcile(Http1Connection c, String key) throws IOException {
        Observed foo = foos.get(key);
        if (foo == null || foo.deploymentName() == null || foo.deploymentName().isEmpty()) {
            return true; // gone, or nothing to do until its spec names a Deployment
        }
        String ns = foo.namespace();
        int want = foo.replicas() < 0 ? 1 : foo.replicas();
        Observed dep = deployments.get(key(ns, foo.deploymentName()));
        if (dep == null) {
            String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
            Http1Connection.Response r = send(c, "POST", path, JSON, deployment(foo, want));
            if (r.status() != 201) {
                return false; // 409: the watch has not shown it yet; anything else: try again
            }
            dep = Observed.object(r.body());
            newer(deployments, dep);
        }
        if (!"Foo".equals(dep.ownerKind()) || !foo.uid().equals(dep.ownerUid())) {
            return true; // not ours: the sample-controller reports it and leaves it alone
        }
        if (dep.replicas() != want) {
            String path = "/apis/apps/v1/namespaces/" + ns + "/deployments/" + dep.name();
            Http1Connection.Response r = send(
                    c,
                    "PATCH",
                    path,
                    MERGE,
                    ("{\"spec\":{\"replicas\":" + want + "}}").getBytes(StandardCharsets.UTF_8));
            if (r.status() != 200) {
                return false;
            }
            dep = Observed.object(r.body());
            newer(deployments, dep);
        }
        if (foo.available() != dep.available()) {
            String path = FOOS + "/namespaces/" + ns + "/foos/" + foo.name() + "/status";
            Http1Connection.Response r = send(
                    c,
                    "PATCH",
                    path,
                    MERGE,
                    ("{\"status\":{\"availableReplicas\":" + dep.available() + "}}").getBytes(StandardCharsets.UTF_8));
            if (r.status() != 200) {
                return r.status() == 404; // a Foo deleted meanwhile is done
            }
            newer(foos, Observed.object(r.body()));
        }
        return true;
    }

    private Http1Connection.Response send(Http1Connection c, String method, String path, String type, byte[] body)
            throws IOException {
        tally.record(method, path);
        return c.exchange(method, path, type, body);
    }

    /** The Deployment a Foo owns, as Go's sample-controller builds it. */
    private static byte[] deployment(Observed foo, int replicas) {
        String name = foo.name();
        String json = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\""
                + foo.deploymentName() + "\",\"namespace\":\"" + foo.namespace() + "\",\"ownerReferences\":[{"
                + "\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\",\"name\":\"" + name
                + "\",\"uid\":\"" + foo.uid() + "\",\"controller\":true,\"blockOwnerDeletion\":true}]},"
                + "\"spec\":{\"replicas\":" + replicas + ",\"selector\":{\"matchLabels\":{\"app\":\"nginx\","
                + "\"controller\":\"" + name + "\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"nginx\","
                + "\"controller\":\"" + name + "\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\","
                + "\"image\":\"nginx:latest\"}]}}}}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
