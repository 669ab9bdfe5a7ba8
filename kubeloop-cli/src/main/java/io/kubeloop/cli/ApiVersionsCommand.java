package io.kubeloop.cli;

import io.kubeloop.client.KubeClient;
import io.kubeloop.client.discovery.DiscoveryClient;
import io.kubeloop.client.discovery.ServerResources;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kubeloop api-versions}: every served group/version, one per line, as kubectl prints them. */
@Command(name = "api-versions", description = "Print the supported API versions on the server, as group/version.")
final class ApiVersionsCommand implements Callable<Integer>, ConnectedCommand {

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public Integer call() {
        try (KubeClient client = connection.connect(spec.commandLine().getErr())) {
            DiscoveryClient discovery = client.discovery();
            discovery.invalidate();
            ServerResources all = discovery.serverGroupsAndResources();
            var out = spec.commandLine().getOut();
            all.apiVersions().forEach(out::println);
            out.flush();
            all.failure().ifPresent(failure -> {
                throw failure;
            });
        }
        return 0;
    }
}
