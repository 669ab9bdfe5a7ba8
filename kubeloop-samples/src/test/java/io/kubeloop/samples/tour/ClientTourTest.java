package io.kubeloop.samples.tour;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.peers.PeerProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's tour runs, step by step, against a real independent server (fabric8's mock in CRUD mode). */
class ClientTourTest {

    @Test
    void tourRunsEveryStepAgainstFabric8sMockServer() {
        try (PeerProcess peer = PeerProcess.startFabric8Mock("samplecontroller.k8s.io/v1alpha1/foos/Foo/Namespaced")) {
            ClientConfig config = new ClientConfig(
                    peer.url(),
                    SslContextBuilder.create().insecureSkipTlsVerify().build(),
                    null,
                    AuthProvider.none(),
                    "default",
                    null,
                    "fabric8 mock");
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (KubeClient client = KubeClient.create(config, ClientOptions.defaults())) {
                ClientTour.run(client, new PrintStream(bytes, true, StandardCharsets.UTF_8));
            }
            assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList())
                    .satisfiesExactly(
                            l -> assertThat(l).matches("created configmap tour at resourceVersion \\d+"),
                            l -> assertThat(l).isEqualTo("configmaps matching 'app in (demo,tour),!legacy': 1"),
                            l -> assertThat(l).isEqualTo("patched greeting: hello, kubeloop"),
                            l -> assertThat(l)
                                    .isEqualTo("dynamic read: ConfigMap default/tour greeting=hello, kubeloop"),
                            l -> assertThat(l).isEqualTo("created Foo default/tour-foo wanting 2 replicas"),
                            l -> assertThat(l).isEqualTo("after delete: 404 NotFound"));
        }
    }
}
