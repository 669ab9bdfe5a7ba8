package io.kubeloop.cli;

import io.kubeloop.client.KubeClient;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop sample-controller}: runs the sample-controller against the cluster of the
 * kubeconfig (any Kubernetes API server, the embedded one included) until SIGINT or SIGTERM, after
 * installing the Foo CRD unless {@code --no-install-crd}. Prints one line when it runs and one when it
 * stopped; a connection or permission problem is one line on stderr and exit 1.
 *
 * <p>Not thread-safe: picocli runs it once on the main thread.
 */
@Command(name = "sample-controller",
        description = "Run the sample-controller (a Foo owns a Deployment) against the kubeconfig's cluster until stopped.")
final class SampleControllerCommand implements Callable<Integer>, ConnectedCommand {

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Option(names = "--install-crd", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Install the Foo CRD first if it is missing (default: true; --no-install-crd to skip).")
    boolean installCrd;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        StopSignal stop = StopSignal.install();
        try (KubeClient client = connection.connect(spec.commandLine().getErr())) {
            if (installCrd) {
                FooCrd.install(client, Duration.ofSeconds(30));
                out.println("Foo CRD " + FooCrd.NAME + " installed");
            }
            try (SampleController sample = new SampleController(client, null)) {
                sample.start();
                out.println("sample-controller running: watching foos and deployments in all namespaces; Ctrl-C to stop");
                out.flush();
                stop.await();
            }
        }
        out.println("sample-controller stopped");
        out.flush();
        return 0;
    }
}
