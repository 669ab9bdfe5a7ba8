package io.kubeloop.cli;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.CodegenException;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.codegen.GeneratedSource;
import io.kubeloop.codegen.ModelGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ObjectNode;

/** {@code kubeloop generate}: Java records from CRDs, and CRDs from Java types. */
@Command(
        name = "generate",
        description = "Generate Java records from CRDs (models), or CRDs from annotated Java types (crds).",
        subcommands = {GenerateCommand.Models.class, GenerateCommand.Crds.class})
final class GenerateCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command: models or crds");
    }

    /** {@code kubeloop generate models}: records for every served version of the CRDs given. */
    @Command(
            name = "models",
            description = "Generate Java records from CustomResourceDefinitions: one record per served version"
                    + " of each kind, in package <package>.<version>.")
    static final class Models implements Callable<Integer> {

        @Option(
                names = "--crd",
                required = true,
                split = ",",
                paramLabel = "FILE_OR_URL",
                description = "A YAML or JSON file (or http(s) URL) with one or more CRDs; repeatable.")
        List<String> crds;

        @Option(names = "--package", required = true, description = "The base Java package, e.g. com.example.")
        String packageName;

        @Option(names = "--out", required = true, description = "The source root to write the files under.")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException, InterruptedException {
            PrintWriter stdout = spec.commandLine().getOut();
            ModelGenerator generator = new ModelGenerator(packageName);
            List<GeneratedSource> sources = new ArrayList<>();
            for (String crd : crds) {
                List<DynamicObject> objects = KubeYaml.readAll(read(crd));
                try {
                    sources.addAll(generator.generate(objects));
                } catch (CodegenException e) {
                    throw new CodegenException(crd + ": " + e.getMessage(), e);
                }
            }
            long lines = 0;
            for (GeneratedSource source : sources) {
                Path file = ModelGenerator.write(List.of(source), out).getFirst();
                long n = source.source().lines().count();
                lines += n;
                stdout.printf("%s (%,d lines)%n", file, n);
            }
            stdout.printf("generated %d records (%,d lines) under %s%n", sources.size(), lines, out);
            stdout.flush();
            return 0;
        }

        private static String read(String location) throws IOException, InterruptedException {
            if (location.startsWith("http://") || location.startsWith("https://")) {
                try (HttpClient http = HttpClient.newBuilder()
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .connectTimeout(Duration.ofSeconds(10))
                        .build()) {
                    HttpResponse<String> response = http.send(
                            HttpRequest.newBuilder(URI.create(location))
                                    .timeout(Duration.ofSeconds(60))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() != 200) {
                        throw new IOException("cannot fetch " + location + ": HTTP " + response.statusCode());
                    }
                    return response.body();
                }
            }
            try {
                return Files.readString(Path.of(location));
            } catch (NoSuchFileException e) {
                throw new IOException("no such file: " + location, e);
            }
        }
    }

    /** {@code kubeloop generate crds}: a CRD YAML file per group and kind of the classes given. */
    @Command(
            name = "crds",
            description = "Generate apiextensions.k8s.io/v1 CustomResourceDefinitions from @Kind Java types:"
                    + " one file per group and kind, named <plural>.<group>.yaml (or YAML on stdout without --out).")
    static final class Crds implements Callable<Integer> {

        @Option(
                names = "--classes",
                required = true,
                split = ",",
                paramLabel = "CLASS",
                description = "Fully qualified @Kind class names; versions of one kind make one CRD.")
        List<String> classes;

        @Option(
                names = {"--classpath", "-cp"},
                paramLabel = "PATH",
                description = "Where the classes are: directories and jars, separated by '${sys:path.separator}'.")
        String classpath;

        @Option(names = "--out", description = "The directory to write the CRD files to; stdout when absent.")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter stdout = spec.commandLine().getOut();
            List<ObjectNode> crds = CrdGenerator.crds(classpath, classes);
            if (out == null) {
                for (int i = 0; i < crds.size(); i++) {
                    String yaml = CrdGenerator.yaml(crds.get(i));
                    stdout.print(i == 0 ? yaml : "---\n" + yaml);
                }
            } else {
                for (Path file : CrdGenerator.write(crds, out)) {
                    stdout.println(file);
                }
            }
            stdout.flush();
            return 0;
        }
    }
}
