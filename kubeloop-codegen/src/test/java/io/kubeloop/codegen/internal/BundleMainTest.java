package io.kubeloop.codegen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.codegen.BundleWebhook;
import io.kubeloop.codegen.CodegenException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The manifests goal's arguments: webhooks in their text form, then the container's arguments. */
class BundleMainTest {

    private static List<String> args(String webhooks, String... container) {
        List<String> out = new ArrayList<>(List.of(
                "manifests",
                "/tmp/out",
                "cp",
                "foo",
                "foo-system",
                "img:1",
                "2",
                "-",
                "com.example.Setup",
                "-",
                webhooks));
        out.addAll(List.of(container));
        return out;
    }

    @Test
    void webhooksAreReadBeforeTheContainerArguments() {
        BundleMain.Request r = BundleMain.parse(args(
                "mutating:/mutate-example-com-v1-foo:example.com/v1/foos,conversion:foos.example.com",
                "--leader-elect"));
        assertThat(r.webhooks())
                .containsExactly(
                        BundleWebhook.mutating("/mutate-example-com-v1-foo", "example.com", "v1", "foos"),
                        BundleWebhook.conversion("foos.example.com"));
        assertThat(r.args()).containsExactly("--leader-elect");
        assertThat(BundleMain.parse(args("-")).webhooks()).isEmpty();
    }

    @Test
    void aMalformedWebhookIsNamed() {
        assertThatThrownBy(() -> BundleWebhook.parse("mutating:no-slash:example.com/v1/foos"))
                .isInstanceOf(CodegenException.class)
                .hasMessageContaining("got \"mutating:no-slash:example.com/v1/foos\"");
        assertThatThrownBy(() -> BundleWebhook.parse("auditing:/x:example.com/v1/foos"))
                .isInstanceOf(CodegenException.class);
        assertThat(BundleWebhook.parse("validating:/validate-core-v1-pod:/v1/pods")
                        .group())
                .isEmpty();
    }
}
