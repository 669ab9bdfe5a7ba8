package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.EmbeddedApiServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the benchmark's objects — {@link PodGenerator}'s Pods, or any other deterministic generator's
 * objects in {@link PodGenerator}'s namespaces — straight into the embedded server's storage with
 * {@link EmbeddedApiServer#load(List)} (the same commit path a REST write ends in: revision,
 * serialization once, history, watch fan-out), skipping HTTP, admission and managedFields bookkeeping
 * so the writer is cheap and the objects are exactly what the generator made.
 *
 * <p><b>Thread safety.</b> Not thread-safe; one benchmark thread drives it.
 */
final class PodWriter {

    /** Pods per {@link EmbeddedApiServer#load(List)} call while loading. */
    private static final int BATCH = 256;
    /** The annotation each modification changes. */
    static final String SEQ_ANNOTATION = "bench.kubeloop.io/seq";

    private final EmbeddedApiServer server;
    private final IntFunction<ObjectNode> generator;
    private long seq;

    /** A writer of {@link PodGenerator}'s Pods. */
    PodWriter(EmbeddedApiServer server) {
        this(server, PodGenerator::pod);
    }

    /**
     * A writer of {@code generator}'s objects: object {@code i} is always the same, has
     * {@code metadata.annotations}, and lives in one of {@link PodGenerator}'s namespaces.
     */
    PodWriter(EmbeddedApiServer server, IntFunction<ObjectNode> generator) {
        this.server = server;
        this.generator = generator;
    }

    /** Creates the namespaces {@code bench-0 …} through the API (so they are real objects). */
    void createNamespaces() {
        for (int i = 0; i < PodGenerator.NAMESPACES; i++) {
            server.client()
                    .resource("namespaces")
                    .create(DynamicObject.parse(
                            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                                    + PodGenerator.namespace(i) + "\"}}"));
        }
    }

    /** Creates objects {@code from} (inclusive) to {@code to} (exclusive), generated on all cores. */
    void create(int from, int to) {
        int threads = Runtime.getRuntime().availableProcessors();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = from + t;
                futures.add(pool.submit(() -> {
                    List<ObjectNode> batch = new ArrayList<>(BATCH);
                    for (int i = first; i < to; i += threads) {
                        batch.add(generator.apply(i));
                        if (batch.size() == BATCH) {
                            server.load(batch);
                            batch.clear();
                        }
                    }
                    server.load(batch);
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("loading objects failed: " + e, e);
        }
    }

    /**
     * Modifies {@code count} objects, round robin over the first {@code pods}, each write replacing the
     * object with the generator's and one annotation changed.
     *
     * @return the writer's rate in modifications per second
     */
    double modify(int pods, long count) {
        long start = System.nanoTime();
        for (long k = 0; k < count; k++) {
            int i = (int) (k % pods);
            server.load(List.of(modified(i, seq++)));
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    /** Object {@code i} with its sequence annotation set to {@code seq}. */
    ObjectNode modified(int i, long seq) {
        ObjectNode pod = generator.apply(i);
        ((ObjectNode) pod.get("metadata").get("annotations")).put(SEQ_ANNOTATION, Long.toString(seq));
        return pod;
    }

    /** The sequence number the next modification writes. */
    long nextSeq() {
        return seq;
    }
}
