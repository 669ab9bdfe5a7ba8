package io.kubeloop.controller;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.client.config.KubeConfigLoader;
import io.kubeloop.controller.endpoints.HealthCheck;
import java.io.PrintStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's {@code main}: what the Deployment of its bundle runs. It reads the flags and variables the
 * bundle passes ({@link OperatorFlags}: {@code --leader-elect}, {@code --leader-election-id},
 * {@code --metrics-bind-address}, {@code --health-probe-bind-address}, {@code WATCH_NAMESPACE},
 * {@code POD_NAMESPACE}…), connects as controller-runtime's {@code GetConfig} does ({@code --kubeconfig},
 * {@code KUBECONFIG}, the in-cluster ServiceAccount, {@code ~/.kube/config}), makes a {@link Manager} with
 * those options, lets the operator's setup add its controllers, adds a {@code ping} liveness check and an
 * {@code informers} readiness check ({@link ManagerEndpoints#informersSynced()}), starts the manager and runs until
 * SIGTERM or SIGINT — then closes the manager, which hands its Lease back so that a waiting replica takes over
 * at once — or until the manager stops on its own.
 *
 * {@snippet :
 * public static void main(String[] args) {
 *     OperatorMain.run("widget-operator", args, manager ->
 *             ControllerBuilder.forResource(Widget.class).build(manager, new WidgetReconciler()));
 * }
 * }
 *
 * <p>Exit status: 0 after a stop by signal (the JVM reports 143 for SIGTERM), or after {@code --help}; 2 with
 * one line on stderr for a flag that is not defined or a bad value ({@code widget-operator: flag provided but
 * not defined: --zap-devel (see --help)}, Go's {@code flag} package's words and status); 1 with one
 * line on stderr when the operator cannot run: no configuration to reach the cluster, a server that cannot
 * bind its address, a controller whose caches did not sync — a CRD not installed is named in
 * controller-runtime's words — or a lost Lease. No stack trace for any of them.
 *
 * <p>Immutable and thread-safe; {@link #run(List, Cancellation)} may run more than once, each run with a
 * manager of its own.
 */
public final class OperatorMain {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorMain.class);

    /** How long a signal waits for the manager to close before the JVM goes on exiting. */
    private static final long CLOSE_WAIT_SECONDS = 60;

    private final String name;
    private final Consumer<? super Manager> setup;
    private final ConfigEnvironment environment;
    private final PrintStream out;
    private final PrintStream err;

    private OperatorMain(
            String name,
            Consumer<? super Manager> setup,
            ConfigEnvironment environment,
            PrintStream out,
            PrintStream err) {
        this.name = Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("the operator's name must not be blank");
        }
        this.setup = Objects.requireNonNull(setup, "setup");
        this.environment = Objects.requireNonNull(environment, "environment");
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    /**
     * Runs the operator as the process's {@code main}, and exits the JVM with its status.
     *
     * @param name the operator's name: the default Lease name ({@code --leader-election-id}) and the name in
     *     its messages
     * @param args the process's arguments
     * @param setup adds the operator's controllers (and webhooks, checks) to the manager, e.g. a
     *     {@code addTo(Manager)} method as the bundle generator calls it
     */
    public static void run(String name, String[] args, Consumer<? super Manager> setup) {
        create(name, setup).main(args);
    }

    /**
     * An entry point for the operator {@code name}, reading the real environment and writing to
     * {@link System#out} and {@link System#err}.
     *
     * @param name the operator's name
     * @param setup adds the operator's controllers to the manager
     */
    public static OperatorMain create(String name, Consumer<? super Manager> setup) {
        return new OperatorMain(name, setup, ConfigEnvironment.system(), System.out, System.err);
    }

    /** This entry point reading {@code env} in place of the process's environment (tests, in-process replicas). */
    public OperatorMain withEnvironment(ConfigEnvironment env) {
        return new OperatorMain(name, setup, env, out, err);
    }

    /** This entry point writing its usage to {@code stdout} and its errors to {@code stderr}. */
    public OperatorMain withOutput(PrintStream stdout, PrintStream stderr) {
        return new OperatorMain(name, setup, environment, stdout, stderr);
    }

    /**
     * Runs until SIGTERM or SIGINT (caught by a shutdown hook, which closes the manager and waits for it) or
     * until the manager stops on its own, then exits the JVM with the status; returns only when the JVM is
     * already exiting.
     *
     * @param args the process's arguments
     */
    public void main(String[] args) {
        Cancellation stop = Cancellation.create();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    stop.cancel("the process was asked to stop");
                    try {
                        finished.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int status;
        try {
            status = run(List.of(args), stop);
        } finally {
            finished.countDown();
        }
        if (stop.isCancelled()) {
            return; // the JVM is exiting: System.exit now would wait for the hook forever
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException exiting) {
            return;
        }
        System.exit(status);
    }

    /**
     * Runs the operator until {@code stop} fires or the manager stops on its own.
     *
     * @param args the process's arguments
     * @param stop fires to stop it, as a signal does
     * @return the exit status: 0 stopped by {@code stop} or after {@code --help}, 2 for a usage error, 1 when
     *     the operator could not run or stopped on its own (each error as one line on the error stream)
     */
    public int run(List<String> args, Cancellation stop) {
        Objects.requireNonNull(stop, "stop");
        OperatorFlags flags;
        try {
            flags = OperatorFlags.parse(name, args, environment);
        } catch (IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage() + " (see --help)");
            err.flush();
            return 2;
        }
        if (flags.help()) {
            out.print(OperatorFlags.usage(name));
            out.flush();
            return 0;
        }
        try (KubeClient client = KubeClient.create(clientConfig(flags), ClientOptions.defaults())) {
            ManagerOptions options = flags.managerOptions(client.namespace());
            try (Manager manager = Manager.create(client, options)) {
                stop.onCancel(manager::close);
                setup.accept(manager);
                manager.endpoints().addHealthzCheck("ping", HealthCheck.ping());
                manager.endpoints()
                        .addReadyzCheck("informers", manager.endpoints().informersSynced());
                LOG.info(
                        "{}: starting the manager, watching {}{}",
                        name,
                        flags.watchNamespaces().isEmpty()
                                ? "all namespaces"
                                : "namespaces " + String.join(", ", flags.watchNamespaces()),
                        options.leaderElection()
                                .map(e -> "; leader election on lease " + e.namespace() + "/" + e.name() + " as "
                                        + e.identity())
                                .orElse(""));
                manager.start();
                awaitStopOrTermination(manager, stop);
                if (!stop.isCancelled() && manager.failure().isPresent()) {
                    return failed(manager.failure().get());
                }
            }
        } catch (RuntimeException e) {
            if (stop.isCancelled()) {
                return 0;
            }
            return failed(e);
        }
        return 0;
    }

    /** One line naming what stopped the operator; its stack trace at debug level. */
    private int failed(Throwable e) {
        LOG.debug("{}: stopped", name, e);
        err.println(name + ": " + e.getMessage());
        err.flush();
        return 1;
    }

    private ClientConfig clientConfig(OperatorFlags flags) {
        KubeConfigLoader.Builder loader = KubeConfigLoader.builder().environment(environment);
        if (flags.kubeconfig().isPresent()) {
            return loader.kubeconfig(flags.kubeconfig().get()).build().clientConfig();
        }
        return loader.build().autoClientConfig();
    }

    private static void awaitStopOrTermination(Manager manager, Cancellation stop) {
        CountDownLatch done = new CountDownLatch(1);
        stop.onCancel(done::countDown);
        Thread watcher = Thread.ofVirtual().name("operator-termination").start(() -> {
            try {
                manager.awaitTermination();
            } catch (InterruptedException e) {
                return;
            }
            done.countDown();
        });
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            watcher.interrupt();
        }
    }

    @Override
    public String toString() {
        return "OperatorMain[" + name + "]";
    }
}
