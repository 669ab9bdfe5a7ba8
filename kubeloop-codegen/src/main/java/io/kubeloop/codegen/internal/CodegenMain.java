package io.kubeloop.codegen.internal;

import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.CodegenException;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.codegen.GeneratedSource;
import io.kubeloop.codegen.ModelGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The generators as a process, for build tools that run on an older JVM than the generators need
 * (the Maven plugin forks it on a JDK 21+):
 *
 * <pre>
 * models OUT_DIR PACKAGE CRD_FILE...      writes the records, prints each file
 * builtin OUT_DIR PACKAGE OPENAPI_V3_DIR RELEASE [MODULE]
 *                                         writes the models of the built-in kinds ({@link BuiltinModels}), prints each file
 * crds OUT_DIR CLASSPATH CLASS...         writes one CRD per kind, prints each file
 * manifests OUT_DIR CLASSPATH NAME NAMESPACE IMAGE REPLICAS LEASE|- SETUP[,...] CRD_CLASS[,...]|- WEBHOOK[,...]|- [ARG...]
 *                                         writes an operator's bundle ({@link BundleMain}), prints each file
 * </pre>
 *
 * Exit 0 on success; 1 with one line on stderr on a failure. No API.
 */
public final class CodegenMain {

    private CodegenMain() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (CodegenException | IOException | IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    private static void run(String[] args) throws IOException {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: models OUT PACKAGE CRD... | crds OUT CLASSPATH CLASS...");
        }
        if (args[0].equals("manifests")) {
            for (Path file : BundleMain.write(BundleMain.parse(List.of(args)))) {
                System.out.println(file);
            }
            return;
        }
        if (args[0].equals("builtin") && (args.length == 5 || args.length == 6)) {
            List<GeneratedSource> sources =
                    BuiltinModels.generate(Path.of(args[3]), args[2], args[4], args.length == 6 ? args[5] : null);
            for (Path file : ModelGenerator.write(sources, Path.of(args[1]))) {
                System.out.println(file);
            }
            return;
        }
        Path out = Path.of(args[1]);
        List<String> rest = List.of(args).subList(3, args.length);
        switch (args[0]) {
            case "models" -> {
                ModelGenerator generator = new ModelGenerator(args[2]);
                List<GeneratedSource> sources = new ArrayList<>();
                for (String crd : rest) {
                    try {
                        sources.addAll(generator.generate(KubeYaml.readAll(Path.of(crd))));
                    } catch (CodegenException e) {
                        throw new CodegenException(crd + ": " + e.getMessage(), e);
                    }
                }
                for (Path file : ModelGenerator.write(sources, out)) {
                    System.out.println(file);
                }
            }
            case "crds" -> {
                for (Path file : CrdGenerator.write(CrdGenerator.crds(args[2], rest), out)) {
                    System.out.println(file);
                }
            }
            default ->
                throw new IllegalArgumentException(
                        "unknown command " + args[0] + ": models, builtin, crds or manifests");
        }
    }
}
