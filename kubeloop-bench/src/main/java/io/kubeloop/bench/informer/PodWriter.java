package io.kubeloop.bench.informer;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.Change;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the benchmark's Pods straight into the embedded server's {@link VersionedStore} (the same
 * commit path a REST write ends in: revision, serialization once, history, watch fan-out), skipping
 * HTTP, admission and managedFields bookkeeping so the writer is cheap and the Pods are exactly
 * what {@link PodGenerator} made.
 *
 * <p><b>Thread safety.</b> Not thread-safe; one benchmark thread drives it.
 */
final class PodWriter {

    /** The store id of core/v1 pods. */
    static final String PODS = "/pods";
    /** The annotation each modification changes. */
    static final String SEQ_ANNOTATION = "bench.kubeloop.io/seq";

    private final EmbeddedApiServer server;
    private final VersionedStore store;
    private long seq;

    PodWriter(EmbeddedApiServer server) {
        this.server = server;
        this.store = server.store();
    }

    /** Creates the namespaces {@code bench-0 …} through the registry (so they are real objects). */
    void createNamespaces() {
        ResourceDefinition ns = server.registry().resources().find("", "v1", "namespaces").orElseThrow();
        for (int i = 0; i < PodGenerator.NAMESPACES; i++) {
            ObjectNode body = KubeJson.mapper().createObjectNode();
            body.put("apiVersion", "v1").put("kind", "Namespace");
            body.putObject("metadata").put("name", PodGenerator.namespace(i));
            server.registry().create(ns, "", body, WriteContext.defaults());
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
                    for (int i = first; i < to; i += threads) {
                        ObjectNode pod = PodGenerator.pod(i);
                        store.write(PODS, PodGenerator.key(i), cur -> {
                            if (cur != null) {
                                throw new IllegalStateException("pod exists: " + cur);
                            }
                            return Change.put(pod);
                        });
                    }
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
     * Modifies {@code count} pods, round robin over the first {@code pods}, each write changing one
     * annotation.
     *
     * @return the writer's rate in modifications per second
     */
    double modify(int pods, long count) {
        long start = System.nanoTime();
        for (long k = 0; k < count; k++) {
            int i = (int) (k % pods);
            String key = PodGenerator.key(i);
            StoredObject cur = store.get(PODS, key).orElseThrow();
            ObjectNode next = cur.object().deepCopy();
            ((ObjectNode) next.get("metadata").get("annotations")).put(SEQ_ANNOTATION, Long.toString(seq++));
            store.write(PODS, key, c -> Change.put(next));
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }
}
