package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.apiserver.internal.storage.wal.WalLockedException;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Watch;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.config.ClientConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server on a data directory, closed and started again in this JVM, over real HTTPS. */
class EmbeddedApiServerRestartTest {

    @TempDir
    Path tmp;

    private static ResourceClient<DynamicObject> configMaps(KubeClient client) {
        return client.resource("configmaps").inNamespace("default");
    }

    private static DynamicObject configMap(String name, String value) {
        return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"v\":\"" + value + "\"}}");
    }

    /** name -> resourceVersion + data of every ConfigMap in default. */
    private static Map<String, String> snapshot(KubeClient client) {
        Map<String, String> out = new TreeMap<>();
        for (DynamicObject o : configMaps(client).list(ListOptions.none()).items()) {
            out.put(
                    o.metadata().name(),
                    o.metadata().resourceVersion() + " " + o.node().path("data"));
        }
        return out;
    }

    private ServerOptions options() {
        return ServerOptions.defaults().withDataDir(tmp.resolve("data"));
    }

    @Test
    void aRestartServesTheSameObjectsAtTheSameResourceVersionsAndKeepsCaTokenAndKubeconfig() {
        Map<String, String> before;
        String listRv;
        int port;
        String ca;
        String token;
        Path kubeconfig = tmp.resolve("kubeconfig");
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options())) {
            ResourceClient<DynamicObject> cms = configMaps(server.client());
            for (int i = 0; i < 5; i++) {
                cms.create(configMap("c" + i, "v1"));
            }
            cms.update(cms.get("c1").edit(n -> n.putObject("data").put("v", "v2")));
            cms.delete("c2");
            before = snapshot(server.client());
            listRv = cms.list(ListOptions.none()).resourceVersion();
            port = server.url().getPort();
            ca = server.caPem();
            token = server.token();
            server.writeKubeconfig(kubeconfig);
        }
        assertThat(before).hasSize(4);
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options().withPort(port));
                KubeClient old = KubeClient.create(ClientConfig.fromKubeconfig(kubeconfig), ClientOptions.defaults())) {
            assertThat(server.caPem()).isEqualTo(ca);
            assertThat(server.token()).isEqualTo(token);
            assertThat(snapshot(old))
                    .as("served through the kubeconfig written before the restart")
                    .isEqualTo(before);
            assertThat(configMaps(old).list(ListOptions.none()).resourceVersion())
                    .isEqualTo(listRv);
            assertThat(server.client()
                            .resource("namespaces")
                            .list(ListOptions.none())
                            .items())
                    .hasSize(4);
            DynamicObject created = configMaps(old).create(configMap("after", "v1"));
            assertThat(Long.parseLong(created.metadata().resourceVersion())).isGreaterThan(Long.parseLong(listRv));
        }
    }

    @Test
    void aWatchFromBeforeTheRestartIsExpiredAndOneFromTheRecoveredRevisionContinues() throws Exception {
        String early;
        String last;
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options())) {
            ResourceClient<DynamicObject> cms = configMaps(server.client());
            early = cms.create(configMap("w", "1")).metadata().resourceVersion();
            last = cms.update(cms.get("w").edit(n -> n.putObject("data").put("v", "2")))
                    .metadata()
                    .resourceVersion();
        }
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options())) {
            ResourceClient<DynamicObject> cms = configMaps(server.client());
            assertThat(firstEventOrError(cms, early)).isInstanceOf(GoneException.class);
            try (Watch<DynamicObject> watch =
                    cms.watch(ListOptions.builder().resourceVersion(last).build())) {
                String rv = cms.update(
                                cms.get("w").edit(n -> n.putObject("data").put("v", "3")))
                        .metadata()
                        .resourceVersion();
                WatchEvent<DynamicObject> event = watch.next().orElseThrow();
                assertThat(event).isInstanceOf(WatchEvent.Modified.class);
                assertThat(((WatchEvent.Modified<DynamicObject>) event)
                                .object()
                                .metadata()
                                .resourceVersion())
                        .isEqualTo(rv);
            }
        }
    }

    /** The watch's failure: thrown by the request, or the first event's ERROR status. */
    private static Object firstEventOrError(ResourceClient<DynamicObject> cms, String rv) {
        try (Watch<DynamicObject> watch =
                cms.watch(ListOptions.builder().resourceVersion(rv).build())) {
            WatchEvent<DynamicObject> e = watch.next().orElseThrow();
            return e instanceof WatchEvent.Error<DynamicObject> err ? err.exception() : e;
        } catch (GoneException e) {
            return e;
        }
    }

    @Test
    void aSecondServerOnTheSameDataDirectoryIsRefused() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start(options())) {
            assertThatThrownBy(() -> EmbeddedApiServer.start(options()))
                    .isInstanceOf(WalLockedException.class)
                    .hasMessageContaining("in use");
            assertThat(configMaps(server.client()).list(ListOptions.none()).items())
                    .isEmpty();
        }
    }

    @Test
    void closeIsIdempotentAndReleasesTheDataDirectory() {
        EmbeddedApiServer server = EmbeddedApiServer.start(options());
        configMaps(server.client()).create(configMap("x", "1"));
        server.close();
        server.close();
        assertThat(server.awaitStopped()).isEmpty();
        try (EmbeddedApiServer again = EmbeddedApiServer.start(options())) {
            assertThat(configMaps(again.client())
                            .get("x")
                            .node()
                            .path("data")
                            .path("v")
                            .asString())
                    .isEqualTo("1");
        }
    }
}
