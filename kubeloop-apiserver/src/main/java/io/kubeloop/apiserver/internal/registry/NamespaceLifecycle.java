package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import io.kubeloop.client.FieldValidation;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The namespace controller: empties a Terminating namespace (deleting every namespaced object in it,
 * honouring finalizers) and then finalizes it, so it disappears.
 *
 * <p>One virtual thread per terminating namespace; it polls every 100 ms until the namespace is empty.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
final class NamespaceLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(NamespaceLifecycle.class);

    private final ObjectRegistry registry;
    private final ResourceRegistry resources;
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    NamespaceLifecycle(ObjectRegistry registry, ResourceRegistry resources) {
        this.registry = registry;
        this.resources = resources;
    }

    void terminate(String namespace) {
        if (running.add(namespace)) {
            Thread.ofVirtual().name("namespace-lifecycle-" + namespace).start(() -> {
                try {
                    run(namespace);
                } catch (RuntimeException e) {
                    LOG.warn("emptying namespace {} failed", namespace, e);
                } finally {
                    running.remove(namespace);
                }
            });
        }
    }

    private void run(String namespace) {
        ResourceDefinition nsDef = resources.find("", "v1", "namespaces").orElseThrow();
        while (true) {
            int remaining = 0;
            Set<String> seen = new HashSet<>();
            for (ResourceDefinition def : resources.all()) {
                if (!def.namespaced() || !seen.add(def.storageId())) {
                    continue;
                }
                for (StoredObject o : registry.store()
                        .list(ListQuery.all(def.storageId(), namespace))
                        .items()) {
                    remaining++;
                    if (!o.object().path("metadata").has("deletionTimestamp")) {
                        try {
                            // the real namespace controller deletes with Background propagation
                            registry.delete(
                                    def,
                                    namespace,
                                    o.name(),
                                    DeleteParams.propagation("Background", null),
                                    WriteContext.defaults());
                        } catch (NotFoundException ignored) {
                            // gone meanwhile
                        }
                    }
                }
            }
            if (remaining == 0) {
                break;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        try {
            StoredObject ns = registry.get(nsDef, "", namespace);
            ObjectNode body = ns.object().deepCopy();
            body.putObject("spec").putArray("finalizers");
            registry.update(
                    nsDef,
                    "",
                    namespace,
                    "finalize",
                    body,
                    new WriteContext("namespace-controller", null, false, FieldValidation.IGNORE, false));
        } catch (NotFoundException ignored) {
            // already gone
        }
    }
}
