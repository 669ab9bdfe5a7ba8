package io.kubeloop.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import io.kubeloop.controller.rbac.RbacManifests;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooReconciler;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The YAML that docs/rbac.md shows as its first example's output is what that example prints: the same
 * controller (the sample's reconciler declares the same rules as the doc's) over a manager with leader
 * election, written with the same prefix and namespace. Nothing is sent to the (absent) server.
 */
class RbacDocOutputTest {

    private static final Pattern FIRST_YAML = Pattern.compile("(?ms)^```yaml\\n(.*?)^```$");

    @Test
    void theOutputShownAfterTheFirstExampleIsWhatItPrints() throws IOException {
        Path doc = Path.of(System.getProperty("basedir", ""))
                .toAbsolutePath()
                .getParent()
                .resolve("docs/rbac.md");
        Matcher shown = FIRST_YAML.matcher(Files.readString(doc));
        assertThat(shown.find()).as("a yaml block in %s", doc).isTrue();

        ManagerOptions options = ManagerOptions.defaults()
                .withLeaderElection(LeaderElectionOptions.defaults("foo-system", "foo-controller", "me"));
        try (KubeClient client = KubeClient.create(
                        new ClientConfig(
                                URI.create("https://127.0.0.1:9"),
                                SslContextBuilder.create()
                                        .insecureSkipTlsVerify()
                                        .build(),
                                null,
                                AuthProvider.none(),
                                "default",
                                null,
                                "nowhere"),
                        ClientOptions.defaults());
                Manager manager = Manager.create(client, options)) {
            ControllerBuilder.forResource(Foo.class).owns(Deployment.class).build(manager, new FooReconciler());

            assertThat(RbacManifests.of(manager.permissions(), "foo", "foo-system")
                            .yaml())
                    .isEqualTo(shown.group(1));
        }
    }
}
