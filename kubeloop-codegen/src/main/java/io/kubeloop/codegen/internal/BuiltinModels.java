package io.kubeloop.codegen.internal;

import io.kubeloop.codegen.GeneratedSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The models of Kubernetes' built-in kinds, generated from the OpenAPI v3 documents of one release: a
 * record for every object definition of every document (but those kubeloop models with its own types:
 * {@code ObjectMeta}, {@code OwnerReference}, {@code ManagedFieldsEntry}, {@code Quantity}, {@code
 * IntOrString}, and the scalar and free-form definitions), in one package per API group and version
 * ({@code io.k8s.api.apps.v1.Deployment} → {@code <base>.apps.v1.Deployment}), with each package's {@code
 * JsonReaders} and {@code package-info}.
 *
 * <p>Stateless; safe to share.
 */
public final class BuiltinModels {

    private BuiltinModels() {}

    /**
     * The sources for the documents in {@code directory}.
     *
     * @param directory the release's {@code api/openapi-spec/v3}
     * @param basePackage the package the group-version packages go under
     * @param release the release, for the packages' Javadoc ({@code v1.35.0})
     * @param moduleName the module whose descriptor to write (exporting every package and opening it to
     *     Jackson), or null for none
     * @throws IOException if a document cannot be read
     */
    public static List<GeneratedSource> generate(Path directory, String basePackage, String release, String moduleName)
            throws IOException {
        OpenApiDocuments documents = OpenApiDocuments.read(directory);
        Map<String, JsonNode> definitions = documents.schemas();
        Map<String, Map<String, String>> packages = new TreeMap<>(); // package -> class -> definition
        for (Map.Entry<String, JsonNode> e : definitions.entrySet()) {
            if (!ModelTypes.notGenerated(e.getKey(), e.getValue())) {
                packages.computeIfAbsent(ModelTypes.packageOf(basePackage, e.getKey()), p -> new TreeMap<>())
                        .put(ModelTypes.classOf(e.getKey()), e.getKey());
            }
        }
        List<GeneratedSource> sources = new ArrayList<>();
        StringBuilder registrations = new StringBuilder();
        for (Map.Entry<String, Map<String, String>> p : packages.entrySet()) {
            String packageName = p.getKey();
            Set<String> names = new TreeSet<>(p.getValue().keySet());
            for (Map.Entry<String, String> c : p.getValue().entrySet()) {
                String definition = c.getValue();
                String source = new DefinitionWriter(basePackage, packageName, names, definitions)
                        .write(definition, definitions.get(definition), documents.resource(definition));
                sources.add(new GeneratedSource(packageName, c.getKey(), source));
                OpenApiDocuments.Resource r = documents.resource(definition);
                if (r != null) {
                    registrations
                            .append("        b.registerDefault(")
                            .append(packageName)
                            .append('.')
                            .append(c.getKey())
                            .append(".class, new GroupVersionKind(")
                            .append(JavaText.literal(r.group()))
                            .append(", ")
                            .append(JavaText.literal(r.version()))
                            .append(", ")
                            .append(JavaText.literal(r.kind()))
                            .append("), ")
                            .append(JavaText.literal(r.plural()))
                            .append(", ")
                            .append(r.namespaced() ? "ResourceScope.NAMESPACED" : "ResourceScope.CLUSTER")
                            .append(");\n");
                }
            }
            sources.add(new GeneratedSource(
                    packageName, "JsonReaders", PackageRenderer.jsonReaders(packageName, List.copyOf(names))));
            String groupVersion =
                    packageName.substring(basePackage.length() + 1).replace('.', '/');
            sources.add(new GeneratedSource(
                    packageName, "package-info", PackageRenderer.packageInfo(packageName, groupVersion, release)));
        }
        sources.add(new GeneratedSource(
                basePackage + ".internal", PROVIDER, provider(basePackage, release, registrations)));
        if (moduleName != null) {
            sources.add(new GeneratedSource(
                    "", "module-info", moduleInfo(moduleName, basePackage, release, packages.keySet())));
        }
        return sources;
    }

    /** The simple name of the generated {@code ModelSupport} in {@code <base>.internal}. */
    public static final String PROVIDER = "BuiltinKinds";

    private static String provider(String basePackage, String release, StringBuilder registrations) {
        return "package " + basePackage + ".internal;\n\n"
                + "import io.kubeloop.api.GroupVersionKind;\n"
                + "import io.kubeloop.api.ResourceScope;\n"
                + "import io.kubeloop.api.Scheme;\n"
                + "import io.kubeloop.api.spi.ModelSupport;\n\n"
                + "/**\n * Registers every kind of Kubernetes " + release
                + " as its record in the default scheme, with its\n"
                + " * resource and scope. Found by the service loader; stateless.\n */\n"
                + "public final class " + PROVIDER + " implements ModelSupport {\n\n"
                + "    /** The instance the service loader makes. */\n"
                + "    public " + PROVIDER + "() {}\n\n"
                + "    @Override\n"
                + "    public void registerDefaults(Scheme.Builder b) {\n"
                + registrations
                + "    }\n}\n";
    }

    private static String moduleInfo(String moduleName, String basePackage, String release, Set<String> packages) {
        StringBuilder out = new StringBuilder("/**\n * The models of Kubernetes' built-in kinds, ")
                .append(release)
                .append(": immutable records generated from\n * its OpenAPI documents, one package per API group"
                        + " and version. Jackson writes the records by reflection.\n */\n")
                .append("module ")
                .append(moduleName)
                .append(
                        " {\n    requires transitive io.kubeloop.api;\n\n    provides io.kubeloop.api.spi.ModelSupport with\n            ")
                .append(basePackage)
                .append(".internal.")
                .append(PROVIDER)
                .append(";\n");
        for (String p : packages) {
            out.append("\n    exports ").append(p).append(";\n");
        }
        for (String p : packages) {
            out.append("\n    opens ").append(p).append(" to\n            tools.jackson.databind;\n");
        }
        return out.append("}\n").toString();
    }
}
