package io.kubeloop.codegen;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.internal.ModelWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * Generates Java records from CustomResourceDefinitions: for each served version of each CRD, a
 * record for the kind in package {@code <base>.<version>}, with nested records for nested objects,
 * nested enums for string enums, {@code List} and {@code Map} for arrays and
 * {@code additionalProperties}, {@link io.kubeloop.api.IntOrString} for int-or-string, a JSON tree
 * for free-form values, Javadoc from the descriptions, and the annotations that make
 * {@link CrdGenerator} write the same schema back, and the CRD's own {@code metadata.annotations}
 * (but kubectl's {@code last-applied-configuration}) in {@code @CustomResource(annotations = …)}:
 *
 * {@snippet :
 * ModelGenerator generator = new ModelGenerator("com.example.certmanager");
 * for (GeneratedSource source : generator.generate(KubeYaml.readAll(Path.of("certificates.yaml")))) {
 *     source.relativePath(); // com/example/certmanager/v1/Certificate.java
 * }
 * }
 *
 * <p>The kind's record is annotated with {@link io.kubeloop.api.Kind @Kind}, so clients, informers
 * and the scheme use it with no other code. Every record has {@code with…} methods, and nested
 * records an {@code empty()} factory, so an object with a few fields set is one expression.
 * Immutable and thread-safe.
 */
public final class ModelGenerator {

    private final String basePackage;

    /**
     * @param basePackage the package the version packages go under, e.g. {@code com.example}
     * @throws IllegalArgumentException if it is not a Java package name
     */
    public ModelGenerator(String basePackage) {
        Objects.requireNonNull(basePackage, "basePackage");
        if (!basePackage.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*")) {
            throw new IllegalArgumentException("not a Java package name: " + basePackage);
        }
        this.basePackage = basePackage;
    }

    /**
     * The sources for every CRD among {@code objects} (other kinds are ignored).
     *
     * @param objects objects read from YAML or JSON, e.g. by {@link KubeYaml#readAll(Path)}
     * @return one source per served version of each CRD
     * @throws CodegenException if there is no CRD, or a schema cannot be mapped
     */
    public List<GeneratedSource> generate(List<DynamicObject> objects) {
        List<GeneratedSource> sources = new ArrayList<>();
        for (DynamicObject object : objects) {
            if ("CustomResourceDefinition".equals(object.kind())) {
                sources.addAll(generate(object.node()));
            }
        }
        if (sources.isEmpty()) {
            throw new CodegenException("no apiextensions.k8s.io/v1 CustomResourceDefinition with a served version"
                    + " among " + objects.size() + " objects");
        }
        return sources;
    }

    /**
     * The sources for one CRD.
     *
     * @param crd an {@code apiextensions.k8s.io/v1} CustomResourceDefinition
     * @return one source per served version
     * @throws CodegenException if it is not a v1 CRD or a schema cannot be mapped
     */
    public List<GeneratedSource> generate(JsonNode crd) {
        String apiVersion = crd.path("apiVersion").asString("");
        String name = crd.path("metadata").path("name").asString("?");
        if (!apiVersion.equals("apiextensions.k8s.io/v1")) {
            throw new CodegenException("CRD " + name + " is " + apiVersion + "; only apiextensions.k8s.io/v1 is read");
        }
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asString();
        boolean namespaced = !"Cluster".equals(spec.path("scope").asString("Namespaced"));
        List<GeneratedSource> sources = new ArrayList<>();
        for (JsonNode version : spec.path("versions")) {
            if (!version.path("served").asBoolean(true)) {
                continue;
            }
            String versionName = version.path("name").asString();
            String packageName =
                    basePackage + "." + versionName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
            try {
                String source = new ModelWriter()
                        .write(
                                packageName,
                                group,
                                crd.path("metadata").path("annotations"),
                                spec.path("names"),
                                namespaced,
                                version);
                String className =
                        ModelWriter.className(spec.path("names").path("kind").asString());
                sources.add(new GeneratedSource(packageName, className, source));
            } catch (CodegenException e) {
                throw new CodegenException("CRD " + name + ", version " + versionName + ": " + e.getMessage(), e);
            }
        }
        return sources;
    }

    /**
     * Writes {@code sources} under {@code sourceRoot}, creating packages as needed and replacing files.
     *
     * @return the files written
     * @throws IOException if a file cannot be written
     */
    public static List<Path> write(List<GeneratedSource> sources, Path sourceRoot) throws IOException {
        List<Path> written = new ArrayList<>();
        for (GeneratedSource source : sources) {
            Path file = sourceRoot.resolve(source.relativePath());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.source());
            written.add(file);
        }
        return written;
    }
}
