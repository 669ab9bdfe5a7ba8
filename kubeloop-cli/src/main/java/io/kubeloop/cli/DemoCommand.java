package io.kubeloop.cli;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.Wait;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop demo}: the whole loop on a laptop. Starts the embedded API server, installs the Foo
 * CRD, starts the sample-controller, creates a Foo, and prints — as it happens — the Deployment being
 * created, its Pods scheduled and run on the simulated Node, and the Foo's status catching up. Then it
 * keeps serving (until Ctrl-C) and says how to point kubectl at it; with {@code --once} it checks the
 * end state instead and exits: 0 when every check holds, 1 with one line naming the first that does
 * not.
 *
 * <p>The kubeconfig holds the server's token: it is written owner-only (0600). Without
 * {@code --kubeconfig-out} it goes to a new owner-only temporary directory (0700), which is removed with
 * it when the demo ends — after success, after a failure, after SIGINT or SIGTERM, and from the shutdown
 * hook on any other exit but {@code kill -9} ({@link ServerLifetime#onStop}). A file named with
 * {@code --kubeconfig-out} is the user's and stays. SIGINT or SIGTERM while the loop is still being set
 * up ends the setup early: the serving demo then stops, and {@code --once} fails.
 *
 * <p>Not thread-safe: picocli runs it once on the main thread; the informer handlers that print run
 * on their own threads and print through the (synchronized) {@link PrintWriter}.
 */
@Command(name = "demo", description = "Run the API server, the sample-controller and a Foo, and show the loop at work.")
final class DemoCommand implements Callable<Integer> {

    static final String NAMESPACE = "default";
    static final String FOO = "example-foo";
    static final String DEPLOYMENT = "example-foo-nginx";
    /** Between checks of the Foo's status; also the first back-off after a transient failure. */
    private static final Duration POLL = Duration.ofMillis(50);

    @Spec
    CommandSpec spec;

    @Option(names = "--once", description = "Check the end state and exit (0 when the loop worked) instead of serving.")
    boolean once;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "0",
            description = "HTTPS port of the API server; 0 picks a free one (default).")
    int port;

    @Option(
            names = "--kubeconfig-out",
            paramLabel = "FILE",
            description = "Where to write the kubeconfig (default: a new temporary directory).")
    Path kubeconfigOut;

    @Option(
            names = "--replicas",
            paramLabel = "N",
            defaultValue = "2",
            description = "Replicas the Foo asks for, 1..10 (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "How long to wait for the Foo's status to catch up (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Override
    public Integer call() {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0..65535, got " + port);
        }
        if (replicas < 1 || replicas > 10) {
            throw new IllegalArgumentException("--replicas must be 1..10 (the Foo CRD's range), got " + replicas);
        }
        if (timeoutSeconds < 1) {
            throw new IllegalArgumentException("--timeout must be at least 1 second, got " + timeoutSeconds);
        }
        PrintWriter out = spec.commandLine().getOut();
        ServerLifetime lifetime =
                ServerLifetime.start(ServeCommand.baseOptions().withPort(port));
        try (KubeClient client = KubeClient.create(lifetime.server().clientConfig(), ClientOptions.defaults())) {
            Path kubeconfig = kubeconfigPath(lifetime);
            lifetime.server().writeKubeconfig(kubeconfig);
            say(out, "API server ready at " + lifetime.server().url() + "; kubeconfig: " + kubeconfig);
            say(
                    out,
                    "live view of the API server: http://"
                            + ServeCommand.hostPort(
                                    lifetime.server().serveLiveView(new InetSocketAddress("127.0.0.1", 0)))
                            + "/");
            FooCrd.install(client, Duration.ofSeconds(30));
            say(out, "installed CRD " + FooCrd.NAME);
            try (InformerFactory watch = InformerFactory.create(client, InformerOptions.defaults());
                    Manager manager = Manager.create(
                            client,
                            ManagerOptions.defaults().withMetricsAddress(new InetSocketAddress("127.0.0.1", 0)))) {
                CountDownLatch narrated = new CountDownLatch(2); // the deployment available, the foo in sync
                narrate(watch, out, narrated);
                watch.start();
                Controller controller = SampleController.addTo(manager);
                manager.start();
                say(
                        out,
                        "sample-controller started: watching foos and deployments, " + SampleController.WORKERS
                                + " workers");
                say(
                        out,
                        "live view of its loops: http://127.0.0.1:"
                                + manager.endpoints()
                                        .metricsAddress()
                                        .orElseThrow()
                                        .getPort() + "/loops");
                createFoo(client);
                say(
                        out,
                        "created foo " + NAMESPACE + "/" + FOO + " (deploymentName " + DEPLOYMENT + ", replicas "
                                + replicas + ")");
                boolean synced = awaitFooInSync(client, Duration.ofSeconds(timeoutSeconds), lifetime);
                if (!lifetime.stopRequested()) {
                    awaitQuietly(narrated, Duration.ofSeconds(5)); // let the narration catch up before the verdict
                }
                if (once) {
                    return lifetime.stopRequested()
                            ? fail("stopped before the end state was checked")
                            : verify(client, controller, synced, out);
                }
                if (!lifetime.stopRequested()) {
                    if (!synced) {
                        say(
                                out,
                                "warning: the foo's status did not catch up within " + timeoutSeconds
                                        + " s; still serving");
                    }
                    say(out, "try: kubectl --kubeconfig " + kubeconfig + " get foos,deployments,pods,events");
                    say(out, "serving until Ctrl-C");
                    lifetime.awaitStopSignal();
                }
            }
        } finally {
            lifetime.stop();
        }
        say(out, "demo stopped");
        return 0;
    }

    /** {@code --kubeconfig-out}, or a kubeconfig in a new temporary directory that {@code lifetime}'s stop removes. */
    private Path kubeconfigPath(ServerLifetime lifetime) {
        if (kubeconfigOut != null) {
            return kubeconfigOut.toAbsolutePath().normalize();
        }
        try {
            Path dir = Files.createTempDirectory("kubeloop-demo"); // owner-only (0700) where POSIX
            lifetime.onStop(() -> deleteTree(dir));
            return dir.resolve("kubeconfig");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create a temporary directory for the kubeconfig: " + e.getMessage(), e);
        }
    }

    /** Removes {@code dir} and everything in it, as far as it can (this runs on the way out). */
    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // already gone, or not ours to remove any more
        }
    }

    /** Prints each step of the loop as the informers see it; counts {@code narrated} down at the last two. */
    private void narrate(InformerFactory watch, PrintWriter out, CountDownLatch narrated) {
        watch.informerFor(Deployment.class, InformerScope.namespace(NAMESPACE))
                .addEventHandler(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Deployment d, boolean initial) {
                        say(
                                out,
                                "deployment " + NAMESPACE + "/"
                                        + d.metadata().name() + " created by " + owner(d) + ": " + available(d)
                                        + "/" + d.spec().replicas() + " replicas available");
                    }

                    @Override
                    public void onUpdate(Deployment before, Deployment after) {
                        if (!Objects.equals(available(before), available(after))) {
                            say(
                                    out,
                                    "deployment " + NAMESPACE + "/"
                                            + after.metadata().name() + ": " + available(after) + "/"
                                            + after.spec().replicas()
                                            + " replicas available");
                            if (available(after) == replicas) {
                                narrated.countDown();
                            }
                        }
                    }
                });
        watch.informerFor(Foo.class, InformerScope.namespace(NAMESPACE)).addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onUpdate(Foo before, Foo after) {
                if (!Objects.equals(before.status(), after.status()) && after.status() != null) {
                    say(
                            out,
                            "foo " + NAMESPACE + "/" + after.metadata().name() + ": status.availableReplicas = "
                                    + after.status().availableReplicas() + " (sample-controller)");
                    if (Integer.valueOf(replicas).equals(after.status().availableReplicas())) {
                        narrated.countDown();
                    }
                }
            }
        });
    }

    private static void awaitQuietly(CountDownLatch latch, Duration timeout) {
        try {
            latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String owner(Deployment d) {
        return d.metadata().ownerReferencesOrEmpty().stream()
                .filter(r -> Boolean.TRUE.equals(r.controller()))
                .map(r -> r.kind().toLowerCase(Locale.ROOT) + " " + r.name())
                .findFirst()
                .orElse("nobody");
    }

    private static int available(Deployment d) {
        return d.status() == null || d.status().availableReplicas() == null
                ? 0
                : d.status().availableReplicas();
    }

    /** Creates the Foo, riding out transient failures; a create whose answer was lost is found on the next try. */
    private void createFoo(KubeClient client) {
        Wait.until("foo " + NAMESPACE + "/" + FOO + " to be created", POLL, Duration.ofSeconds(timeoutSeconds), () -> {
            try {
                client.resource(Foo.class).inNamespace(NAMESPACE).create(Foo.of(NAMESPACE, FOO, DEPLOYMENT, replicas));
            } catch (AlreadyExistsException createdBefore) {
                // an earlier attempt made it
            }
            return true;
        });
    }

    /**
     * Whether the Foo's status reports its replicas available within {@code timeout}, riding out transient
     * failures; false at once when a stop is requested.
     */
    private boolean awaitFooInSync(KubeClient client, Duration timeout, ServerLifetime lifetime) {
        boolean[] synced = {false};
        try {
            Wait.poll(
                    "foo " + NAMESPACE + "/" + FOO + " to report " + replicas + " available replicas",
                    POLL,
                    timeout,
                    () -> {
                        if (lifetime.stopRequested()) {
                            return true;
                        }
                        Foo foo;
                        try {
                            foo = client.resource(Foo.class)
                                    .inNamespace(NAMESPACE)
                                    .get(FOO);
                        } catch (RuntimeException e) {
                            if (lifetime.stopRequested()) {
                                return true; // the request was cut short by the stop
                            }
                            throw e;
                        }
                        synced[0] = foo.status() != null
                                && Integer.valueOf(replicas).equals(foo.status().availableReplicas());
                        return synced[0];
                    });
        } catch (IllegalStateException e) {
            if (Thread.currentThread().isInterrupted() || lifetime.stopRequested()) {
                return false;
            }
            throw e;
        }
        return synced[0] && !lifetime.stopRequested();
    }

    /** {@code --once}: every check of the end state, or one line naming the first that failed. */
    private int verify(KubeClient client, Controller controller, boolean synced, PrintWriter out) {
        Foo foo = client.resource(Foo.class).inNamespace(NAMESPACE).get(FOO);
        Deployment deployment;
        try {
            deployment =
                    client.resource(Deployment.class).inNamespace(NAMESPACE).get(DEPLOYMENT);
        } catch (NotFoundException e) {
            return fail("deployment " + NAMESPACE + "/" + DEPLOYMENT + " was not created");
        }
        boolean owned = deployment.metadata().ownerReferencesOrEmpty().stream()
                .anyMatch(r -> Boolean.TRUE.equals(r.controller())
                        && r.uid().equals(foo.metadata().uid()));
        if (!owned) {
            return fail("deployment " + DEPLOYMENT + " is not controlled by foo " + FOO);
        }
        if (!Integer.valueOf(replicas).equals(deployment.spec().replicas())) {
            return fail("deployment " + DEPLOYMENT + " asks for "
                    + deployment.spec().replicas() + " replicas, the foo for " + replicas);
        }
        if (available(deployment) != replicas) {
            return fail("deployment " + DEPLOYMENT + " has " + available(deployment) + " of " + replicas
                    + " replicas available");
        }
        if (!synced) {
            return fail("foo " + FOO + " status did not catch up within " + timeoutSeconds + " s: " + foo.status());
        }
        if (controller.failure().isPresent()) {
            return fail("the controller failed: " + controller.failure().get());
        }
        say(
                out,
                "demo succeeded: foo " + NAMESPACE + "/" + FOO + " owns deployment " + DEPLOYMENT + " with " + replicas
                        + "/" + replicas + " replicas available, and its status says so");
        return 0;
    }

    private int fail(String why) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("demo failed: " + why);
        err.flush();
        return 1;
    }

    private static void say(PrintWriter out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}
