package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.EmbeddedApiServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the benchmark's Pods straight into the embedded server's storage with
 * {@link EmbeddedApiServer#load(List)} (the same commit path a REST write ends in: revision,
 * serialization once, history, watch fan-out), skipping HTTP, admission and managedFields bookkeeping
 * so the writer is cheap and the Pods are exactly what {@link PodGenerator} made.
 *
 * <p><b>Thread safety.</b> Not thread-safe; one benchmark thread drives it.
 */
final class PodWriter {

    /** Pods per {@link EmbeddedApiServer#load(List)} call while loading. */
    private static final int BATCH = 256;
    /** The annotation each modification changes. */
    static final String SEQ_ANNOTATION = "bench.kubeloop.io/seq";

    private final EmbeddedApiServer server;
    private long seq;

    PodWriter(EmbeddedApiServer server) {
        this.server = server;
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

    /** Creates pods {@code from} (inclusive) to {@code to} (exclusive), generated on all cores. */
    void create(int from, int to) {
        int threads = Runtime.getRuntime().availableProcessors();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = from + t;
                futures.add(pool.submit(() -> {
                    List<ObjectNode> batch = new ArrayList<>(BATCH);
                    for (int i = first; i < to; i += threads) {
                        batch.add(PodGenerator.pod(i));
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
            throw new IllegalStateException("loading pods failed: " + e, e);
        }
    }

    /**
     * Modifies {@code count} pods, round robin over the first {@code pods}, each write replacing the pod
     * with {@link PodGenerator}'s and one annotation changed.
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

    /** Pod {@code i} with its sequence annotation set to {@code seq}. */
    static ObjectNode modified(int i, long seq) {
        ObjectNode pod = PodGenerator.pod(i);
        ((ObjectNode) pod.get("metadata").get("annotations")).put(SEQ_ANNOTATION, Long.toString(seq));
        return pod;
    }

    /** The sequence number the next modification writes. */
    long nextSeq() {
        return seq;
    }
}
