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
        for (Map.Entry<String, Map<String, String>> p : packages.entrySet()) {
            String packageName = p.getKey();
            Set<String> names = new TreeSet<>(p.getValue().keySet());
            for (Map.Entry<String, String> c : p.getValue().entrySet()) {
                String definition = c.getValue();
                String source = new DefinitionWriter(basePackage, packageName, names, definitions)
                        .write(definition, definitions.get(definition), documents.resource(definition));
                sources.add(new GeneratedSource(packageName, c.getKey(), source));
            }
            sources.add(new GeneratedSource(
                    packageName, "JsonReaders", PackageRenderer.jsonReaders(packageName, List.copyOf(names))));
            String groupVersion =
                    packageName.substring(basePackage.length() + 1).replace('.', '/');
            sources.add(new GeneratedSource(
                    packageName, "package-info", PackageRenderer.packageInfo(packageName, groupVersion, release)));
        }
        if (moduleName != null) {
            sources.add(new GeneratedSource("", "module-info", moduleInfo(moduleName, release, packages.keySet())));
        }
        return sources;
    }

    private static String moduleInfo(String moduleName, String release, Set<String> packages) {
        StringBuilder out = new StringBuilder("/**\n * The models of Kubernetes' built-in kinds, ")
                .append(release)
                .append(": immutable records generated from\n * its OpenAPI documents, one package per API group"
                        + " and version. Jackson writes the records by reflection.\n */\n")
                .append("module ")
                .append(moduleName)
                .append(" {\n    requires transitive io.kubeloop.api;\n");
        for (String p : packages) {
            out.append("\n    exports ").append(p).append(";\n");
        }
        for (String p : packages) {
            out.append("\n    opens ").append(p).append(" to\n            tools.jackson.databind;\n");
        }
        return out.append("}\n").toString();
    }
}
