package io.kubeloop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.peers.PeerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubeloop's client against an independent peer: fabric8's KubernetesMockServer in CRUD mode, in a
 * child JVM. The mock has no pagination, answers PATCH with 202 and watches only over WebSocket, so
 * watch framing is tested against {@link io.kubeloop.client.internal.http.TestApiServer} in {@link WatchTest}.
 */
class Fabric8MockServerTest {

    private static PeerProcess peer;
    private static KubeClient client;
    private static ResourceClient<DynamicObject> configMaps;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(PeerProcess.available(), "kubeloop-peers class path not built");
        peer = PeerProcess.startFabric8Mock();
        ClientConfig config = new ClientConfig(
                peer.url(),
                SslContextBuilder.create().insecureSkipTlsVerify().build(),
                null,
                AuthProvider.bearer("t"),
                "default",
                null,
                "fabric8 mock");
        client = KubeClient.create(
                config, ClientOptions.builder().rateLimitingEnabled(false).build());
        configMaps = client.resource(
                new GroupVersionResource("", "v1", "configmaps"), ResourceScope.NAMESPACED, DynamicObject.class);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (peer != null) {
            peer.close();
        }
    }

    private static DynamicObject configMap(String name, String value) {
        return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"k\":\"" + value + "\"}}");
    }

    private static String data(DynamicObject o, String key) {
        return o.at("/data/" + key).map(n -> n.asString()).orElse(null);
    }

    @Test
    void createGetListUpdatePatchAndDeleteRoundTrip() {
        DynamicObject created = configMaps.create(configMap("web", "1"), WriteOptions.none());
        assertThat(created.metadata().name()).isEqualTo("web");
        assertThat(data(configMaps.get("web"), "k")).isEqualTo("1");

        ObjectList<DynamicObject> list = configMaps.list();
        assertThat(list.items()).extracting(o -> o.metadata().name()).contains("web");
        assertThat(list.items()).allSatisfy(o -> assertThat(o.kind()).isEqualTo("ConfigMap"));

        DynamicObject current = configMaps.get("web");
        DynamicObject updated =
                configMaps.update(current.edit(n -> n.withObject("data").put("k", "2")), WriteOptions.none());
        assertThat(data(updated, "k")).isEqualTo("2");

        configMaps.patch(
                "web",
                PatchType.JSON_PATCH,
                "[{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"3\"}]",
                PatchOptions.none());
        assertThat(data(configMaps.get("web"), "k")).isEqualTo("3");
        configMaps.patch("web", PatchType.MERGE, "{\"data\":{\"m\":\"x\"}}", PatchOptions.none());
        DynamicObject merged = configMaps.get("web");
        assertThat(data(merged, "k")).isEqualTo("3");
        assertThat(data(merged, "m")).isEqualTo("x");

        configMaps.delete("web", DeleteOptions.none());
        assertThat(configMaps.list().items())
                .extracting(o -> o.metadata().name())
                .doesNotContain("web");
    }

    @Test
    void listAllWorksWhenTheServerDoesNotPage() {
        configMaps.create(configMap("p1", "1"), WriteOptions.none());
        configMaps.create(configMap("p2", "1"), WriteOptions.none());
        ObjectList<DynamicObject> all =
                configMaps.listAll(ListOptions.builder().limit(1).build());
        assertThat(all.items()).extracting(o -> o.metadata().name()).contains("p1", "p2");
    }

    @Test
    void missingObjectIsNotFoundAndDuplicateCreateIsRejectedWith409() {
        assertThatThrownBy(() -> configMaps.get("absent")).isInstanceOf(NotFoundException.class);
        configMaps.create(configMap("dup", "1"), WriteOptions.none());
        // fabric8's mock answers a duplicate create with code 409 but reason "Invalid" (a real server
        // says "AlreadyExists"); like client-go, kubeloop classifies by reason first.
        assertThatThrownBy(() -> configMaps.create(configMap("dup", "1"), WriteOptions.none()))
                .isInstanceOfSatisfying(InvalidException.class, e -> {
                    assertThat(e.code()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("'dup' already exists");
                });
    }
}
