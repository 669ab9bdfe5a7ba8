package io.kubeloop.samples.samplecontroller;

import io.kubeloop.api.Scheme;
import io.kubeloop.controller.webhook.AdmissionDeniedException;
import io.kubeloop.controller.webhook.Conversions;
import io.kubeloop.controller.webhook.Defaulter;
import io.kubeloop.controller.webhook.TypedWebhooks;
import io.kubeloop.controller.webhook.Validator;
import io.kubeloop.controller.webhook.WebhookServer;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Foo's webhooks, as a kubebuilder project has them: a defaulting webhook (a Foo without
 * {@code replicas} gets 1, without {@code deploymentName} its own name), a validating webhook (the
 * Deployment's name must be a DNS-1123 label; more than 5 replicas is allowed with a warning) and the
 * conversion between v1alpha1 ({@link Foo}) and v1 ({@link FooV1}, the hub).
 */
public final class FooWebhooks {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    private FooWebhooks() {}

    /** Sets a Foo's defaults. */
    public static final Defaulter<Foo> DEFAULTER = foo -> {
        Foo.Spec spec = foo.spec() == null ? new Foo.Spec(null, null) : foo.spec();
        String deployment = spec.deploymentName() == null ? foo.metadata().name() : spec.deploymentName();
        Integer replicas = spec.replicas() == null ? Integer.valueOf(1) : spec.replicas();
        return new Foo(foo.apiVersion(), foo.kind(), foo.metadata(), new Foo.Spec(deployment, replicas), foo.status());
    };

    /** Checks a Foo. */
    public static final Validator<Foo> VALIDATOR = foo -> {
        String deployment = foo.spec() == null ? null : foo.spec().deploymentName();
        if (deployment == null || !DNS_LABEL.matcher(deployment).matches()) {
            throw new AdmissionDeniedException(
                    "spec.deploymentName: Invalid value: \"" + deployment + "\": must be a DNS-1123 label");
        }
        Integer replicas = foo.spec().replicas();
        return replicas != null && replicas > 5
                ? List.of("spec.replicas: more than 5 replicas of " + deployment)
                : List.of();
    };

    /**
     * Registers the three on {@code server}: {@code /mutate-samplecontroller-k8s-io-v1alpha1-foo},
     * {@code /validate-samplecontroller-k8s-io-v1alpha1-foo} and {@code /convert}.
     */
    public static void registerWith(WebhookServer server, Scheme scheme) {
        Scheme withBoth =
                scheme.toBuilder().register(Foo.class).register(FooV1.class).build();
        TypedWebhooks.forType(Foo.class, withBoth)
                .withDefaulter(DEFAULTER)
                .withValidator(VALIDATOR)
                .registerWith(server);
        Conversions.hub(FooV1.class, withBoth)
                .spoke(Foo.class, FooV1::fromV1alpha1, FooV1::toV1alpha1)
                .registerWith(server);
    }
}
