package io.kubeloop.bench.race;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.client.ByObject;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.peers.race.RaceReporter;
import io.kubeloop.peers.race.RequestTally;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooReconciler;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Contender "kubeloop" of the race: kubeloop-samples' {@link SampleController} as it ships
 * ({@code new SampleController(client)}: a Manager with default options, the controller's own
 * {@link SampleController#WORKERS} workers, a {@code Synced} Event after every successful sync), over a {@link KubeClient} with {@link ClientOptions#defaults()}
 * (client-side rate limiting off) for the kubeconfig given as the first argument, plus one application
 * interceptor that counts the requests. Protocol: {@link RaceReporter}.
 *
 * <p>Further arguments make diagnostic variants, wired as {@link SampleController#addTo} wires the
 * sample but with one thing changed each, to find where kubeloop's time goes; none is the sample as
 * it ships:
 * <ul>
 * <li>{@code workers=N}: N workers instead of {@link SampleController#WORKERS};</li>
 * <li>{@code no-events}: {@link FooReconciler} gets a recorder that drops its Events;</li>
 * <li>{@code no-deep-copy}: cache reads of Foos and Deployments return the cached instances
 *     ({@link ByObject#withUnsafeDisableDeepCopy()}) instead of copies — unsafe here, since the
 *     reconciler changes the Deployment it read; a measurement of the copies' cost only;</li>
 * <li>{@code keep-managed-fields}: the cache keeps {@code metadata.managedFields} in Foos and
 *     Deployments ({@link CacheOptions#keepingManagedFields()}; by default it drops them);</li>
 * <li>{@code http2}: the client sends its requests through the JDK HttpClient's HTTP/2 connection
 *     ({@code ClientOptions.http1Requests(false)}) instead of its kept-alive HTTP/1.1 connections.</li>
 * </ul>
 */
public final class KubeloopOperatorChild {

    private static final EventRecorder DROP_EVENTS = (object, type, reason, message) -> {};

    private KubeloopOperatorChild() {}

    public static void main(String[] args) {
        RequestTally tally = new RequestTally();
        RaceReporter reporter = new RaceReporter(tally);
        Runnable stop;
        try {
            stop = start(Path.of(args[0]), Arrays.asList(args).subList(1, args.length), tally, reporter);
        } catch (RuntimeException | LinkageError e) {
            reporter.fail(e);
            return;
        }
        reporter.ready();
        reporter.serveUntilStdinCloses(stop);
    }

    /** Starts the operator (once its caches synced); returns what stops it. */
    private static Runnable start(Path kubeconfig, List<String> variant, RequestTally tally, RaceReporter reporter) {
        Interceptor counting = chain -> {
            String query = chain.request().uri().getRawQuery();
            tally.record(
                    chain.request().method(), chain.request().uri().getRawPath() + (query == null ? "" : "?" + query));
            return chain.proceed(chain.request());
        };
        KubeClient client = KubeClient.create(
                ClientConfig.fromKubeconfig(kubeconfig),
                ClientOptions.defaults().toBuilder()
                        .interceptors(List.of(counting))
                        .http1Requests(!variant.contains("http2"))
                        .build());
        if (variant.isEmpty()) {
            SampleController sample = new SampleController(client);
            reporter.stats(() -> KubeloopStats.of(sample.manager().meterRegistry()));
            sample.start();
            return () -> {
                sample.close();
                client.close();
            };
        }
        Manager manager = Manager.create(client, managerOptions(variant));
        reporter.stats(() -> KubeloopStats.of(manager.meterRegistry()));
        int workers = variant.stream()
                .filter(v -> v.startsWith("workers="))
                .mapToInt(v -> Integer.parseInt(v.substring("workers=".length())))
                .findFirst()
                .orElse(SampleController.WORKERS);
        ControllerBuilder.forResource(Foo.class)
                .owns(Deployment.class)
                .named(SampleController.NAME)
                .withOptions(o -> o.maxConcurrentReconciles(workers))
                .build(manager, reconciler(variant));
        manager.start();
        manager.failure().ifPresent(f -> {
            throw new IllegalStateException("the operator did not start: " + f, f);
        });
        return () -> {
            manager.close();
            client.close();
        };
    }

    private static ManagerOptions managerOptions(List<String> variant) {
        for (String v : variant) {
            if (!v.startsWith("workers=")
                    && !List.of("no-events", "no-deep-copy", "keep-managed-fields", "http2")
                            .contains(v)) {
                throw new IllegalArgumentException("unknown variant " + v);
            }
        }
        ByObject<Foo> foos = ByObject.of(Foo.class);
        ByObject<Deployment> deployments = ByObject.of(Deployment.class);
        if (variant.contains("no-deep-copy")) {
            foos = foos.withUnsafeDisableDeepCopy();
            deployments = deployments.withUnsafeDisableDeepCopy();
        }
        CacheOptions cache = CacheOptions.defaults().with(foos).with(deployments);
        return ManagerOptions.defaults()
                .withCache(variant.contains("keep-managed-fields") ? cache.keepingManagedFields() : cache);
    }

    private static Reconciler reconciler(List<String> variant) {
        FooReconciler foo = new FooReconciler();
        if (!variant.contains("no-events")) {
            return foo;
        }
        return (request, context) -> foo.reconcile(
                request,
                ReconcileContext.of(context.controllerName(), context.client(), DROP_EVENTS, context.cancellation()));
    }
}
