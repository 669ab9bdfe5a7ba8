package io.kubeloop.cli;

import io.kubeloop.client.KubeClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code kubeloop get --raw PATH}: GETs a server path and prints the body as it came, as
 * {@code kubectl get --raw} does. (Table output of resources is not implemented yet.)
 */
@Command(name = "get", description = "GET a raw server path: kubeloop get --raw /apis/apps/v1")
final class GetCommand implements Callable<Integer>, ConnectedCommand {

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Option(names = "--raw", paramLabel = "PATH", required = true,
            description = "The server path (and query) to GET, e.g. /api/v1/namespaces/default/pods?limit=1")
    String raw;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public Integer call() {
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
