package io.kubeloop.cli;

import io.kubeloop.client.KubeClient;
import io.kubeloop.client.discovery.APIResource;
import io.kubeloop.client.discovery.DiscoveryClient;
import io.kubeloop.client.discovery.ServerResources;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kubeloop api-resources}: the server's resources with kubectl's columns. Like kubectl it
 * refreshes the discovery cache first (unless {@code --cached}); when some group versions fail it
 * prints what it has, then the error, and exits 1.
 */
@Command(name = "api-resources", description = "Print the supported API resources on the server.")
final class ApiResourcesCommand implements Callable<Integer>, ConnectedCommand {

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--api-group",
            paramLabel = "GROUP",
            description = "Limit to resources in this group (\"\" = core).")
    String apiGroup;

    @Option(
            names = "--namespaced",
            arity = "0..1",
            paramLabel = "BOOL",
            description = "true: only namespaced resources; false: only cluster-scoped ones.")
    Boolean namespaced;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            completionCandidates = Formats.class,
            description = OutputFormats.DESCRIPTION + "kubectl's columns NAME SHORTNAMES APIVERSION NAMESPACED KIND.")
    String output;

    /** wide (plus VERBS and CATEGORIES) and name (resource.group), as kubectl's. */
    static final class Formats extends OutputFormats {
        Formats() {
            super("wide", "name");
        }
    }

    @Option(names = "--no-headers", description = "Do not print the header line.")
    boolean noHeaders;

    @Option(names = "--cached", description = "Use the discovery cache as it is, without refreshing it.")
    boolean cached;

    @Override
    public ConnectionOptions connection() {
        return connection;
    }

    @Override
    public Integer call() {
        new Formats().check(output);
        try (KubeClient client = connection.connect(spec.commandLine().getErr())) {
            DiscoveryClient discovery = client.discovery();
            if (!cached) {
                discovery.invalidate();
            }
            ServerResources all = discovery.serverGroupsAndResources();
            List<APIResource> rows = all.apiResourcesListing().stream()
                    .filter(r -> apiGroup == null || r.group().equals(apiGroup))
                    .filter(r -> namespaced == null || r.namespaced() == namespaced)
                    .toList();
            print(rows);
            all.failure().ifPresent(failure -> {
                throw failure;
            });
        }
        return 0;
    }

    private void print(List<APIResource> rows) {
        var out = spec.commandLine().getOut();
        if ("name".equals(output)) {
            for (APIResource r : rows) {
                out.println(r.group().isEmpty() ? r.name() : r.name() + "." + r.group());
            }
            out.flush();
            return;
        }
        boolean wide = "wide".equals(output);
        Table table = new Table();
        if (!noHeaders) {
            table.row(
                    wide
                            ? List.of("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND", "VERBS", "CATEGORIES")
                            : List.of("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"));
        }
        for (APIResource r : rows) {
            List<String> cells = List.of(
                    r.name(),
                    String.join(",", r.shortNames()),
                    r.groupVersion().apiVersion(),
                    String.valueOf(r.namespaced()),
                    r.kind());
            if (wide) {
                cells = new ArrayList<>(cells);
                cells.add(String.join(",", r.verbs()));
                cells.add(String.join(",", r.categories()));
            }
            table.row(cells);
        }
        table.print(out);
    }
}
