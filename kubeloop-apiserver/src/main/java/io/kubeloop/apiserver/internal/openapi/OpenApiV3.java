package io.kubeloop.apiserver.internal.openapi;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.CanonicalJson;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.ServedResources;
import io.kubeloop.apiserver.internal.schema.UpstreamOpenApi;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI v3 documents kubectl reads: {@code GET /openapi/v3} (the root, listing one URL per
 * group version) and {@code GET /openapi/v3/<api/v1 | apis/g/v>?hash=H} (one OpenAPI 3.0 document
 * per group version).
 *
 * <p>What kubectl needs from them, and what these documents give:
 * <ul>
 *   <li>{@code create}/{@code apply}/{@code replace} with the default {@code --validate=strict}
 *       look for the PATCH operation whose {@code x-kubernetes-group-version-kind} is the object's
 *       GVK and which declares the query parameter {@code fieldValidation}; finding it, kubectl
 *       sends {@code fieldValidation=Strict} and validates nothing itself.</li>
 *   <li>Client-side {@code apply} sends a strategic merge patch when that PATCH operation's
 *       {@code requestBody.content} lists {@code application/strategic-merge-patch+json} (built-ins
 *       only), computing it from {@code components.schemas} and their
 *       {@code x-kubernetes-patch-merge-key}s; otherwise a JSON merge patch.</li>
 *   <li>{@code explain} finds the kind through the paths' GVK extension and walks
 *       {@code components.schemas} (the kind schema carries {@code x-kubernetes-group-version-kind}).</li>
 * </ul>
 *
 * <p><b>Byte stability.</b> Documents are written with object keys sorted at every level, compact,
 * so the same served kinds always give the same bytes and the same hash {@code H} (upper-case hex
 * SHA-512 of the group-version document's bytes, as kube-openapi computes it). Serve exactly
 * {@link Document#json()}: the hash in the root is the hash of those bytes. Rebuild the documents
 * whenever the served kinds change (a CRD is established, updated or deleted), so the hash changes
 * and kubectl's HTTP cache refetches. The real server answers a stale {@code ?hash=} with a 301 to
 * the current URL and a matching one with {@code Cache-Control: public, immutable} and a one-year
 * {@code Expires}.
 *
 * <p>Thread-safe (pure functions).
 */
public final class OpenApiV3 {

    private OpenApiV3() {}

    /**
     * One group version's document.
     *
     * @param path the key in the root: {@code api/v1} or {@code apis/<group>/<version>}
     * @param json the bytes to serve with {@code Content-Type: application/json}
     * @param hash upper-case hex SHA-512 of {@code json}
     */
    public record Document(String path, byte[] json, String hash) {

        public Document {
            Objects.requireNonNull(path, "path");
            json = json.clone();
            Objects.requireNonNull(hash, "hash");
        }

        @Override
        public byte[] json() {
            return json.clone();
        }

        /** {@code /openapi/v3/<path>?hash=<hash>}. */
        public String serverRelativeUrl() {
            return "/openapi/v3/" + path + "?hash=" + hash;
        }
    }

    /**
     * Everything {@code /openapi/v3} serves, built at once so the root's hashes match the documents.
     *
     * @param root the bytes of {@code GET /openapi/v3}
     * @param groupVersions by path ({@code api/v1}, {@code apis/apps/v1}), sorted
     */
    public record Documents(byte[] root, Map<String, Document> groupVersions) {

        public Documents {
            root = root.clone();
            groupVersions = Collections.unmodifiableMap(new TreeMap<>(groupVersions));
        }

        @Override
        public byte[] root() {
            return root.clone();
        }

        /** The document for a path as it appears in the URL after {@code /openapi/v3/}. */
        public Optional<Document> find(String path) {
            return Optional.ofNullable(groupVersions.get(path));
        }
    }

    /**
     * Builds the root and every group version's document from the served kinds, each kind serving its
     * {@code status} and {@code scale} subresources as {@link ServedKind#subresources()} says.
     */
    public static Documents documents(List<ServedKind> kinds) {
        return documents(kinds, ServedResources.of(kinds));
    }

    /**
     * Builds the root and every group version's document from the served kinds: a group version of
     * built-in kinds gets the release's own document ({@link UpstreamOpenApi#groupVersion}, limited to
     * {@code served}), one of custom resources the document kubeloop writes ({@link #groupVersion}),
     * whose schemas of types the release defines (ObjectMeta, Status...) are the release's own.
     */
    public static Documents documents(List<ServedKind> kinds, ServedResources served) {
        Map<String, Document> docs = new LinkedHashMap<>();
        Map<GroupVersion, ObjectNode> trees = new LinkedHashMap<>();
        Map<String, JsonNode> upstreamSchemas = new HashMap<>();
        byGroupVersion(kinds).forEach((gv, list) -> {
            Optional<ObjectNode> upstream = list.stream().allMatch(ServedKind::builtin)
                    ? UpstreamOpenApi.groupVersion(gv, served)
                    : Optional.empty();
            upstream.ifPresent(doc -> doc.path("components")
                    .path("schemas")
                    .properties()
                    .forEach(e -> upstreamSchemas.put(e.getKey(), e.getValue())));
            trees.put(gv, upstream.orElse(null));
        });
        byGroupVersion(kinds).forEach((gv, list) -> {
            ObjectNode tree = trees.get(gv);
            if (tree == null) {
                tree = groupVersion(gv, list);
                UpstreamOpenApi.overlay(
                        (ObjectNode) tree.path("components").path("schemas"), upstreamSchemas, "#/components/schemas/");
            }
            byte[] json = CanonicalJson.bytes(tree);
            String path = OpenApiDocument.groupVersionPath(gv);
            docs.put(path, new Document(path, json, CanonicalJson.hash(json)));
        });
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode paths = root.putObject("paths");
        docs.values().forEach(d -> paths.putObject(d.path()).put("serverRelativeURL", d.serverRelativeUrl()));
        return new Documents(CanonicalJson.bytes(root), docs);
    }

    /**
     * The root document {@code {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=H"},...}}};
     * the same as {@code documents(kinds).root()}, as a tree.
     */
    public static ObjectNode root(List<ServedKind> kinds) {
        return (ObjectNode) KubeJson.mapper().readTree(documents(kinds).root());
    }

    /**
     * The OpenAPI 3.0 document kubeloop writes for one group version, for the kinds of {@code kinds} in
     * that group version (others are ignored): what custom resources' group versions are served with.
     */
    public static ObjectNode groupVersion(GroupVersion gv, List<ServedKind> kinds) {
        OpenApiDocument doc = new OpenApiDocument(false);
        doc.addCommonDefinitions();
        kinds.stream().filter(k -> k.gvk().groupVersion().equals(gv)).forEach(doc::add);
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("openapi", "3.0.0");
        root.putObject("info").put("title", "Kubernetes").put("version", "kubeloop");
        ObjectNode paths = root.putObject("paths");
        doc.paths().forEach(paths::set);
        ObjectNode schemas = root.putObject("components").putObject("schemas");
        doc.schemas().definitions().forEach(schemas::set);
        return (ObjectNode) CanonicalJson.sorted(root);
    }

    static Map<GroupVersion, List<ServedKind>> byGroupVersion(List<ServedKind> kinds) {
        Map<GroupVersion, List<ServedKind>> out =
                new TreeMap<>(Comparator.comparing(OpenApiDocument::groupVersionPath));
        for (ServedKind k : kinds) {
            out.computeIfAbsent(k.gvk().groupVersion(), gv -> new ArrayList<>()).add(k);
        }
        return out;
    }
}
