package io.kubeloop.cli;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Watch;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.client.http.TransportException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop watch RESOURCE}: prints the objects of a resource and then every change, one line
 * per event ({@code EVENT NAMESPACE/NAME RESOURCEVERSION}, or the event as a JSON line with
 * {@code -o json}), until SIGINT or SIGTERM — {@code kubectl get -w --output-watch-events} for any
 * resource the server has (names as kubectl takes them: {@code deploy}, {@code foos.samplecontroller.k8s.io}).
 * It lists, then watches from the list's resourceVersion; a watch the server ends, or whose
 * connection breaks or goes silent, is resumed from the last version seen, and a 410 (the version
 * left the server's window) lists again. Silent: nothing arrived, not even the bookmark the server
 * sends about every minute, for {@code --idle-timeout} (3 minutes by default), or the server did not
 * end the watch by its 5 minute timeout plus the client's margin (see {@link Watch}).
 *
 * <p>Not thread-safe: picocli runs it once; the watch loop runs on one virtual thread, stopped by
 * closing its current watch.
 */
@Command(
        name = "watch",
        description = "Print a resource's objects, then every change, until stopped: kubeloop watch deployments -A")
final class WatchCommand implements Callable<Integer>, ConnectedCommand {

    /** A watch that broke within this, without an event, is resumed only after this much time. */
    private static final Duration VERY_SHORT = Duration.ofSeconds(1);

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            paramLabel = "RESOURCE",
            description = "The resource, as kubectl names it (pods, deploy, foos.samplecontroller.k8s.io).")
    String resource;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "Watch all namespaces (namespaced resources).")
    boolean allNamespaces;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "line",
            completionCandidates = Formats.class,
            description = OutputFormats.DESCRIPTION + "line: EVENT OBJECT RESOURCEVERSION columns; json: each event "
                    + "as one JSON line.")
    String output;

    /** line: {@code EVENT NAMESPACE/NAME RESOURCEVERSION} under a header; json: each event as one JSON line. */
    static final class Formats extends OutputFormats {
        Formats() {
            super("line", "json");
        }
    }

    @Option(
            names = "--idle-timeout",
            paramLabel = "SECONDS",
            defaultValue = "180",
            description =
                    "Resume a watch that received nothing, not even a bookmark, for this long (default 180; 0: never).")
    long idleTimeoutSeconds;

    /** Set when the user stops the command; the watch loop then ends quietly. */
    private volatile boolean stopping;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public Integer call() throws Exception {
        new Formats().check(output);
        if (idleTimeoutSeconds < 0) {
            throw new ParameterException(
                    spec.commandLine(), "--idle-timeout must not be negative, got " + idleTimeoutSeconds);
        }
        PrintWriter out = spec.commandLine().getOut();
        StopSignal stop = StopSignal.install();
        try (KubeClient client = connection.connect(spec.commandLine().getErr())) {
            ResourceClient<DynamicObject> all = client.resource(resource);
            ResourceClient<DynamicObject> scoped = !all.namespaced()
                    ? all
                    : allNamespaces ? all.inAnyNamespace() : all.inNamespace(client.namespace());
            ObjectList<DynamicObject> first = scoped.list(); // errors (unknown resource, forbidden) surface here
            AtomicReference<Watch<DynamicObject>> current = new AtomicReference<>();
            AtomicReference<Exception> failure = new AtomicReference<>();
            if (output.equals("line")) {
                out.printf("%-9s %-50s %s%n", "EVENT", "OBJECT", "RESOURCEVERSION");
            }
            Thread loop = Thread.ofVirtual().name("kubeloop-watch").start(() -> {
                try {
                    follow(scoped, first, current, out);
                } catch (Exception e) {
                    if (!stopping) {
                        failure.set(e); // a failure of its own, not the end of a stop
                    }
                }
                stop.trigger();
            });
            stop.await();
            stopping = true;
            Watch<DynamicObject> w = current.get();
            if (w != null) {
                w.close();
            }
            boolean interrupted = Thread.interrupted(); // a SIGINT-style stop leaves the flag set
            try {
                loop.join(Duration.ofSeconds(10));
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (failure.get() != null) {
                throw failure.get();
            }
        }
        out.flush();
        return 0;
    }

    /** Prints the listed objects, then watches, resuming and relisting as a reflector does. */
    private void follow(
            ResourceClient<DynamicObject> client,
            ObjectList<DynamicObject> listed,
            AtomicReference<Watch<DynamicObject>> current,
            PrintWriter out) {
        ObjectList<DynamicObject> list = listed;
        while (!stopping) {
            for (DynamicObject o : list.items()) {
                print(out, "ADDED", o);
            }
            String rv = list.resourceVersion();
            boolean relist = false;
            while (!relist && !stopping) {
                try (Watch<DynamicObject> watch = client.watch(ListOptions.builder()
                        .resourceVersion(rv)
                        .allowWatchBookmarks(true)
                        .timeout(Duration.ofMinutes(5))
                        .idleTimeout(Duration.ofSeconds(idleTimeoutSeconds))
                        .build())) {
                    current.set(watch);
                    if (stopping) {
                        return; // stopped while this watch was being opened: close it and end
                    }
                    long started = System.nanoTime();
                    boolean received = false;
                    try {
                        for (var next = watch.next(); next.isPresent(); next = watch.next()) {
                            received = true;
                            switch (next.get()) {
                                case WatchEvent.Added<DynamicObject> a -> rv = print(out, "ADDED", a.object());
                                case WatchEvent.Modified<DynamicObject> m -> rv = print(out, "MODIFIED", m.object());
                                case WatchEvent.Deleted<DynamicObject> d -> rv = print(out, "DELETED", d.object());
                                case WatchEvent.Bookmark<DynamicObject> b -> rv = b.resourceVersion();
                                case WatchEvent.Error<DynamicObject> e -> {
                                    if (e.exception() instanceof GoneException) {
                                        relist = true;
                                    } else {
                                        throw e.exception();
                                    }
                                }
                            }
                            if (relist) {
                                break;
                            }
                        }
                    } catch (TransportException brokenOrSilent) {
                        // resumed from rv as a reflector does; one that broke at once waits a second first
                        if (!received && System.nanoTime() - started < VERY_SHORT.toNanos()) {
                            pause(VERY_SHORT);
                        }
                    }
                } catch (GoneException gone) {
                    relist = true;
                }
            }
            if (relist) {
                list = client.list();
            }
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Prints one event; returns the object's resourceVersion. */
    private String print(PrintWriter out, String type, DynamicObject o) {
        if (output.equals("json")) {
            out.println("{\"type\":\"" + type + "\",\"object\":" + o.toJson() + "}");
        } else {
            String ns = o.metadata().namespace();
            String name = ns == null || ns.isEmpty()
                    ? o.metadata().name()
                    : ns + "/" + o.metadata().name();
            out.printf("%-9s %-50s %s%n", type, name, o.metadata().resourceVersion());
        }
        out.flush();
        return o.metadata().resourceVersion();
    }
}
