package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.samples.samplecontroller.Foo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubeloop sample-controller} against an embedded API server reached through a kubeconfig. */
@Timeout(120)
class SampleControllerCommandTest {

    @TempDir
    Path dir;

    @Test
    void itInstallsTheCrdReconcilesFoosAndStopsCleanly() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
             KubeClient client = KubeClient.create(server.clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = dir.resolve("kubeconfig");
            server.writeKubeconfig(kubeconfig);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread command = Thread.ofPlatform().start(() -> exit.set(Main.run(new PrintWriter(out), new PrintWriter(err),
                    "sample-controller", "--kubeconfig", kubeconfig.toString(), "--cache-dir", dir.resolve("cache").toString())));
            await().atMost(Duration.ofSeconds(60)).until(() -> out.toString().contains("sample-controller running"));
            assertThat(out.toString()).startsWith("Foo CRD foos.samplecontroller.k8s.io installed\n");

            client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "cli-foo", "cli-foo-nginx", 1));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                try {
                    return client.resource(Deployment.class).inNamespace("default").get("cli-foo-nginx") != null;
                } catch (NotFoundException e) {
                    return false;
                }
            });

            command.interrupt(); // what SIGINT does to its wait
            command.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
            assertThat(out.toString()).endsWith("sample-controller stopped\n");
        }
    }

    @Test
    void anUnreachableServerIsOneLineAndExitOne() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path kubeconfig = dir.resolve("missing-kubeconfig");
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), "sample-controller", "--kubeconfig",
                kubeconfig.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString().strip()).doesNotContain("\n").startsWith("error: ");
    }
}
