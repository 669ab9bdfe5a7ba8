package io.kubeloop.cli;

import io.kubeloop.client.KubeClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop get --raw PATH}: GETs a server path and prints the body as it came, as
 * {@code kubectl get --raw} does. Table output of resources is not implemented: {@code get RESOURCE} says
 * in one line what {@code get} supports and exits 1.
 */
@Command(name = "get", description = "GET a raw server path: kubeloop get --raw /apis/apps/v1")
final class GetCommand implements Callable<Integer>, ConnectedCommand {

    /** The one line for {@code get} without {@code --raw}: what it supports, and where resources are. */
    static final String ONLY_RAW = "kubeloop get supports only --raw PATH, e.g. kubeloop get --raw "
            + "/api/v1/namespaces/default/pods; for a resource's objects use kubeloop watch RESOURCE";

    /** kubectl's resource arguments: taken only to explain that {@code get} does not print resources. */
    @Parameters(arity = "0..*", paramLabel = "RESOURCE", hidden = true)
    List<String> resources = List.of();

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--raw",
            paramLabel = "PATH",
            description = "The server path (and query) to GET, e.g. /api/v1/namespaces/default/pods?limit=1")
    String raw;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public Integer call() {
        if (raw == null) {
            throw new IllegalArgumentException(ONLY_RAW);
        }
        if (!resources.isEmpty()) {
            throw new IllegalArgumentException("arguments may not be passed when --raw is specified");
        }
        if (!raw.startsWith("/")) {
            throw new IllegalArgumentException("--raw must be an absolute path starting with '/', got '" + raw + "'");
        }
        try (KubeClient client = connection.connect(spec.commandLine().getErr())) {
            byte[] body = client.raw().get(raw);
            var out = spec.commandLine().getOut();
            out.print(new String(body, StandardCharsets.UTF_8));
            if (body.length > 0 && body[body.length - 1] != '\n') {
                out.println();
            }
            out.flush();
        }
        return 0;
    }
}
