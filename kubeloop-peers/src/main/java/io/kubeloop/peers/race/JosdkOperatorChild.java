package io.kubeloop.peers.race;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Contender "josdk" of kubeloop-bench's race: the sample-controller as a Java Operator SDK operator
 * ({@link JosdkFooReconciler}) with the JOSDK's defaults, in its own JVM. Its fabric8 client is the
 * one the JOSDK builds by default ({@code ConfigurationService#getKubernetesClient()}: at most
 * {@value ConfigurationService#DEFAULT_MAX_CONCURRENT_REQUEST} concurrent requests, a fresh
 * {@code KubernetesSerialization}), for the cluster of the kubeconfig given as the only argument,
 * plus a {@link TallyInterceptor} that counts its requests. Protocol: {@link RaceReporter}.
 */
public final class JosdkOperatorChild {

    private JosdkOperatorChild() {}

    public static void main(String[] args) {
        RequestTally tally = new RequestTally();
        RaceReporter reporter = new RaceReporter(tally);
        Operator operator;
        try {
            operator = start(Path.of(args[0]), tally);
        } catch (IOException | RuntimeException | LinkageError e) {
            reporter.fail(e);
            return;
        }
        reporter.ready();
        reporter.serveUntilStdinCloses(operator::stop);
    }

    /** Builds the client, registers the reconciler and starts the operator (which waits for its caches). */
    private static Operator start(Path kubeconfig, RequestTally tally) throws IOException {
        Config config = new ConfigBuilder(Config.fromKubeconfig(Files.readString(kubeconfig)))
                .withMaxConcurrentRequests(ConfigurationService.DEFAULT_MAX_CONCURRENT_REQUEST)
                .build();
        KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(config)
                .withKubernetesSerialization(new KubernetesSerialization())
                .withHttpClientBuilderConsumer(
                        b -> b.addOrReplaceInterceptor("race-tally", new TallyInterceptor(tally)))
                .build();
        Operator operator = new Operator(o -> o.withKubernetesClient(client));
        operator.register(new JosdkFooReconciler());
        operator.start();
        System.err.println("josdk: fabric8 HTTP client "
                + client.getHttpClient().getClass().getName());
        return operator;
    }
}
