package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.peers.InformerPeer;
import io.kubeloop.peers.PeerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The other Java clients' informers — fabric8 kubernetes-client 7.x (WebSocket watches, its default,
 * and HTTP watches) and kubernetes-client/java — each in its own JVM, sync from the embedded server
 * (started with the CLI's options) and then see the adds, updates and deletes kubeloop's client makes.
 */
class JavaClientInformersTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Path kubeconfig;

    @BeforeAll
    static void start() {
        assumeTrue(PeerProcess.available(), "peer class path missing (run through Maven): informer peers skipped");
        server = EmbeddedApiServer.start(ServeCommand.baseOptions());
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    record Peer(String name, Function<String, InformerPeer> start) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> peers() {
        return Stream.of(
                Arguments.of(new Peer(
                        "fabric8 over WebSocket", ns -> InformerPeer.fabric8ConfigMaps(kubeconfig, ns, false))),
                Arguments.of(new Peer("fabric8 over HTTP", ns -> InformerPeer.fabric8ConfigMaps(kubeconfig, ns, true))),
                Arguments.of(new Peer(
                        "kubernetes-client/java", ns -> InformerPeer.kubernetesClientJavaConfigMaps(kubeconfig, ns))));
    }

    private static DynamicObject configMap(String name, String value) {
        return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"k\":\"" + value + "\"}}");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("peers")
    void informerSyncsThenSeesAddsUpdatesAndDeletes(Peer peer) {
        String ns = "informer-" + peer.name().replaceAll("[^a-z0-9]+", "-").replaceAll("-$", "");
        server.client()
                .resource("namespaces")
                .create(DynamicObject.parse(
                        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
        ResourceClient<DynamicObject> cms =
                server.client().resource("configmaps").inNamespace(ns);
        cms.create(configMap("before", "0"));
        server.client().resource("configmaps").inNamespace("default").create(configMap("elsewhere-" + ns, "x"));

        try (InformerPeer informer = peer.start().apply(ns)) {
            informer.awaitLine("ADD before k=0", WAIT);
            informer.awaitLine("SYNCED", WAIT);

            DynamicObject created = cms.create(configMap("live", "1"));
            informer.awaitLine("ADD live k=1", WAIT);
            cms.update(created.edit(n -> n.putObject("data").put("k", "2")));
            informer.awaitLine("UPDATE live k=2", WAIT);
            cms.delete("live");
            informer.awaitLine("DELETE live k=2", WAIT);
            cms.delete("before");
            informer.awaitLine("DELETE before k=0", WAIT);

            // Handlers are notified asynchronously: SYNCED (the store is filled) may precede "ADD before".
            assertThat(informer.lines())
                    .filteredOn(l -> !l.equals("STARTED") && !l.equals("SYNCED"))
                    .containsExactly(
                            "ADD before k=0",
                            "ADD live k=1",
                            "UPDATE live k=2",
                            "DELETE live k=2",
                            "DELETE before k=0");
            assertThat(informer.lines().indexOf("SYNCED"))
                    .isLessThan(informer.lines().indexOf("ADD live k=1"));
        }
    }
}
