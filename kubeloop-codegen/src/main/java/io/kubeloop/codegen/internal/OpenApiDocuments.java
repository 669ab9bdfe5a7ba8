package io.kubeloop.codegen.internal;

import io.kubeloop.codegen.CodegenException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kubernetes' published OpenAPI v3 documents of one release ({@code api/openapi-spec/v3/*.json}), read
 * for the models of the built-in kinds: the union of their schemas by definition name, and for each kind
 * that is a resource its plural and scope, from the documents' paths.
 *
 * <p>Invariants: a definition name maps to one schema (the documents repeat shared definitions, identical
 * in each; a difference fails the read); a kind is a resource when a path of the form {@code
 * <prefix>[/namespaces/{namespace}]/<plural>[/{name}]} answers with its group, version and kind. Immutable
 * once read; safe to share.
 */
final class OpenApiDocuments {

    /** A kind served as a resource: its definition's group, version, kind, plural and scope. */
    record Resource(String group, String version, String kind, String plural, boolean namespaced) {}

    private final Map<String, JsonNode> schemas;
    private final Map<String, Resource> resources;

    private OpenApiDocuments(Map<String, JsonNode> schemas, Map<String, Resource> resources) {
        this.schemas = schemas;
        this.resources = resources;
    }

    /**
     * Reads every {@code *.json} document in {@code directory}.
     *
     * @throws CodegenException if there is none, or two documents define one name differently
     */
    static OpenApiDocuments read(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(directory)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList();
        }
        if (files.isEmpty()) {
            throw new CodegenException("no OpenAPI v3 document (*.json) in " + directory);
        }
        JsonMapper mapper = JsonMapper.builder().build();
        Map<String, JsonNode> schemas = new TreeMap<>();
        List<JsonNode> documents = new ArrayList<>();
        for (Path file : files) {
            JsonNode document = mapper.readTree(file.toFile());
            documents.add(document);
            for (Map.Entry<String, JsonNode> e :
                    document.path("components").path("schemas").properties()) {
                JsonNode known = schemas.putIfAbsent(e.getKey(), e.getValue());
                if (known != null && !known.equals(e.getValue())) {
                    throw new CodegenException(
                            file.getFileName() + " defines " + e.getKey() + " unlike an earlier document");
                }
            }
        }
        Map<String, String> byGvk = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : schemas.entrySet()) {
            JsonNode gvks = e.getValue().path("x-kubernetes-group-version-kind");
            if (gvks.size() == 1) {
                byGvk.put(gvk(gvks.get(0)), e.getKey());
            }
        }
        Map<String, Resource> resources = new TreeMap<>();
        for (JsonNode document : documents) {
            for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
                for (JsonNode operation : path.getValue()) {
                    JsonNode gvk = operation.path("x-kubernetes-group-version-kind");
                    String definition = gvk.isObject() ? byGvk.get(gvk(gvk)) : null;
                    if (definition != null) {
                        Resource resource = resource(path.getKey(), gvk);
                        if (resource != null) {
                            // all namespaces' list path (/api/v1/pods) says cluster; the namespaced ones decide
                            resources.merge(definition, resource, (a, b) -> a.namespaced() ? a : b);
                        }
                    }
                }
            }
        }
        return new OpenApiDocuments(schemas, resources);
    }

    /** The resource a path addresses, or null when it is no collection or item path (a subresource, a watch). */
    private static Resource resource(String path, JsonNode gvk) {
        List<String> segments = new ArrayList<>(List.of(path.substring(1).split("/")));
        int prefix = segments.getFirst().equals("api") ? 2 : 3; // /api/v1 or /apis/<group>/<version>
        if (segments.size() <= prefix) {
            return null;
        }
        List<String> rest = segments.subList(prefix, segments.size());
        boolean namespaced = rest.size() > 2
                && rest.get(0).equals("namespaces")
                && rest.get(1).equals("{namespace}");
        if (namespaced) {
            rest = rest.subList(2, rest.size());
        }
        String plural = rest.getFirst();
        if (plural.equals("watch") || plural.startsWith("{") || rest.size() > 2) {
            return null;
        }
        if (rest.size() == 2 && !rest.get(1).equals("{name}")) {
            return null;
        }
        return new Resource(
                gvk.path("group").asString(),
                gvk.path("version").asString(),
                gvk.path("kind").asString(),
                plural,
                namespaced);
    }

    private static String gvk(JsonNode gvk) {
        return gvk.path("group").asString() + "/" + gvk.path("version").asString() + "/"
                + gvk.path("kind").asString();
    }

    /** Every definition by name, sorted by name. */
    Map<String, JsonNode> schemas() {
        return schemas;
    }

    /** The resource of the definition {@code name}, or null when it is no resource's kind. */
    Resource resource(String name) {
        return resources.get(name);
    }
}
