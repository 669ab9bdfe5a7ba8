package io.kubeloop.apiserver.internal.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerInternals;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.Journal;
import io.kubeloop.apiserver.internal.storage.Mutation;
import io.kubeloop.client.FieldValidation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * CRDs survive a restart: a server started over a journal that holds CRDs serves their custom
 * resources before it accepts requests. (A list-backed journal stands in for the write-ahead log.)
 */
class CrdRestartTest {

    /** Keeps every mutation in memory and replays them: what the WAL does on disk. */
    private static final class ListJournal implements Journal {
        final List<Mutation> log = new CopyOnWriteArrayList<>();

        @Override
        public Durability append(Mutation mutation) {
            log.add(mutation);
            return Durability.DONE;
        }

        @Override
        public void replay(Consumer<Mutation> sink) {
            log.forEach(sink);
        }
    }

    private static final WriteContext CTX = new WriteContext("test", null, false, FieldValidation.STRICT, false);

    static ObjectNode json(String s) {
        return (ObjectNode) KubeJson.mapper().readTree(s);
    }

    static final String FOO_CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"foos.samplecontroller.k8s.io",
               "annotations":{"api-approved.kubernetes.io":"unapproved, experimental-only"}},
             "spec":{"group":"samplecontroller.k8s.io","scope":"Namespaced","names":{"kind":"Foo","plural":"foos"},
               "versions":[{"name":"v1alpha1","served":true,"storage":true,"subresources":{"status":{}},
                 "schema":{"openAPIV3Schema":{"type":"object","properties":{
                   "spec":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}
            """;

    private static ResourceDefinition crdDefinition(ObjectRegistry r) {
        return r.resources()
                .find("apiextensions.k8s.io", "v1", "customresourcedefinitions")
                .orElseThrow();
    }

    @Test
    void customResourcesAreServedRightAfterARestart(@TempDir Path dataDir) {
        ListJournal journal = new ListJournal();
        ServerOptions options =
                ServerInternals.withJournalFactory(ServerOptions.defaults().withDataDir(dataDir), d -> journal);
        try (EmbeddedApiServer first = EmbeddedApiServer.start(options)) {
            ObjectRegistry r = ServerInternals.registry(first);
            r.create(crdDefinition(r), "", json(FOO_CRD), CTX);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> r.resources()
                            .find("samplecontroller.k8s.io", "v1alpha1", "foos")
                            .isPresent());
            ResourceDefinition foos = r.resources()
                    .find("samplecontroller.k8s.io", "v1alpha1", "foos")
                    .orElseThrow();
            r.create(
                    foos,
                    "default",
                    json("{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                            + "\"metadata\":{\"name\":\"kept\"},\"spec\":{\"replicas\":2}}"),
                    CTX);
        }
        try (EmbeddedApiServer second = EmbeddedApiServer.start(options)) {
            ObjectRegistry r = ServerInternals.registry(second);
            ResourceDefinition foos = r.resources()
                    .find("samplecontroller.k8s.io", "v1alpha1", "foos")
                    .orElseThrow();
            assertThat(foos.schema()).isNotNull();
            assertThat(r.get(foos, "default", "kept")
                            .object()
                            .path("spec")
                            .path("replicas")
                            .asInt())
                    .isEqualTo(2);
        }
    }
}
