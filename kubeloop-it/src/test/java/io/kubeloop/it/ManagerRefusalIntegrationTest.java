package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manager running as a user RBAC does not allow to list what it watches: its readiness check names the
 * refusal (user, verb, resource, scope) instead of only "not synced", so a probe tells missing RBAC from a
 * slow sync.
 */
@Timeout(60)
class ManagerRefusalIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void theInformersSyncedCheckNamesTheRefusedListWithItsUserVerbAndResource() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.csv"), "nobody-token,nobody,uid-nobody\n");
        try (EmbeddedApiServer server =
                        EmbeddedApiServer.start(ServerOptions.defaults().withTokenAuthFile(tokens));
                KubeClient nobody = KubeClient.create(
                        new ClientConfig(
                                server.url(),
                                SslContextBuilder.create()
                                        .trustPem(server.caPem())
                                        .build(),
                                null,
                                AuthProvider.bearer("nobody-token"),
                                "default",
                                null,
                                "a user without rights"),
                        ClientOptions.defaults());
                Manager manager = Manager.create(nobody, ManagerOptions.defaults())) {
            manager.informers().informerFor(ConfigMap.class, InformerScope.all());
            manager.start();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThatThrownBy(
                                    () -> manager.endpoints().informersSynced().check())
                            .hasMessage("informers not synced: [configmaps.v1 (configmaps is forbidden: User "
                                    + "\"nobody\" cannot list resource \"configmaps\" in API group \"\" at the "
                                    + "cluster scope)]"));
        }
    }
}
