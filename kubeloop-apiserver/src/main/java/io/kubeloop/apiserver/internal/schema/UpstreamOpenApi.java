package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kubernetes' own OpenAPI documents of the release the server is ({@link KubernetesRelease}), as
 * kube-apiserver publishes them for what it serves: the release's {@code api/openapi-spec/v3} document
 * of a group version and its {@code swagger.json}, bundled as resources under {@value #ROOT}, with the
 * paths of resources and subresources the server does not serve left out and the schemas nothing
 * left references dropped. Everything kept is upstream's, unchanged — descriptions, defaults,
 * {@code x-kubernetes-*} extensions and operations — except {@code info.version}, which says the
 * release as a running server does (the published files say {@code unversioned}).
 *
 * <p>A path is kept when it is the group version's own ({@code /apis/apps/v1/}), or addresses a served
 * resource ({@code /api/v1/namespaces/{namespace}/pods}, its {@code watch/} form, an item) or a served
 * subresource of one ({@code .../pods/{name}/status}). In {@code swagger.json} the discovery paths
 * {@code /api/}, {@code /apis/} and {@code /version/}, and a served group's {@code /apis/<group>/}, are
 * kept too; the other paths outside the group versions ({@code /logs/}, {@code /.well-known/...}) are not.
 *
 * <p>Stateless: documents are read anew on every call (they are large; callers cache what they build).
 * Thread-safe.
 */
public final class UpstreamOpenApi {

    /** Where the documents are, under the class path's root. */
    static final String ROOT = "/kubernetes-openapi/";

    private static final String V3_REF = "#/components/schemas/";
    private static final String V2_REF = "#/definitions/";

    private UpstreamOpenApi() {}

    /**
     * The release's v3 document of {@code gv}, limited to what {@code served} serves; empty when the
     * release publishes no document for {@code gv}.
     */
    public static Optional<ObjectNode> groupVersion(GroupVersion gv, ServedResources served) {
        Optional<ObjectNode> read = read("v3/" + fileName(gv));
        read.ifPresent(doc -> {
            keepServedPaths(doc.path("paths"), served);
            keepReferenced(doc, (ObjectNode) doc.path("components").path("schemas"), V3_REF);
            stampVersion(doc);
        });
        return read;
    }

    /** The release's {@code swagger.json}, limited to what {@code served} serves. */
    public static ObjectNode swagger(ServedResources served) {
        ObjectNode doc = read("swagger.json")
                .orElseThrow(() -> new IllegalStateException(
                        "missing resource " + ROOT + KubernetesRelease.tag() + "/swagger.json: the jar is incomplete"));
        keepServedPaths(doc.path("paths"), served);
        keepReferenced(doc, (ObjectNode) doc.path("definitions"), V2_REF);
        stampVersion(doc);
        return doc;
    }

    /**
     * Adds to {@code schemas} (a document's {@code components.schemas} or {@code definitions}) every
     * schema that a schema in it references and {@code available} has, until nothing is missing; a
     * schema {@code available} has replaces one of the same name. Used to give documents kubeloop writes
     * (custom resources') upstream's bodies of the types they share with the release (ObjectMeta,
     * Status, DeleteOptions...).
     *
     * @param refPrefix {@code #/components/schemas/} (v3) or {@code #/definitions/} (v2)
     */
    public static void overlay(ObjectNode schemas, Map<String, JsonNode> available, String refPrefix) {
        for (String name : List.copyOf(schemas.propertyNames())) {
            JsonNode upstream = available.get(name);
            if (upstream != null) {
                schemas.set(name, upstream.deepCopy());
            }
        }
        Deque<JsonNode> todo = new ArrayDeque<>();
        schemas.forEach(todo::add);
        while (!todo.isEmpty()) {
            Set<String> refs = new LinkedHashSet<>();
            references(todo.pop(), refPrefix, refs);
            for (String name : refs) {
                JsonNode upstream = available.get(name);
                if (!schemas.has(name) && upstream != null) {
                    schemas.set(name, upstream.deepCopy());
                    todo.add(upstream);
                }
            }
        }
    }

    /** The file name of a group version's document in {@code api/openapi-spec/v3}. */
    static String fileName(GroupVersion gv) {
        return gv.isCore()
                ? "api__" + gv.version() + "_openapi.json"
                : "apis__" + gv.group() + "__" + gv.version() + "_openapi.json";
    }

    private static Optional<ObjectNode> read(String name) {
        String resource = ROOT + KubernetesRelease.tag() + "/" + name;
        try (InputStream in = UpstreamOpenApi.class.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            return Optional.of((ObjectNode) KubeJson.mapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static void stampVersion(ObjectNode doc) {
        if (doc.path("info").isObject()) {
            ((ObjectNode) doc.get("info")).put("version", KubernetesRelease.tag());
        }
    }

    private static void keepServedPaths(JsonNode paths, ServedResources served) {
        if (paths instanceof ObjectNode o) {
            o.retain(o.propertyNames().stream()
                    .filter(path -> served(path, served))
                    .toList());
        }
    }

    /** Whether the server serves what an upstream path addresses. */
    public static boolean served(String path, ServedResources served) {
        List<String> s =
                List.of(path.split("/")).stream().filter(p -> !p.isEmpty()).toList();
        if (s.isEmpty()) {
            return false;
        }
        GroupVersion gv;
        List<String> rest;
        switch (s.get(0)) {
            case "api" -> {
                if (s.size() == 1) {
                    return true;
                }
                gv = new GroupVersion("", s.get(1));
                rest = s.subList(2, s.size());
            }
            case "apis" -> {
                if (s.size() <= 2) {
                    return s.size() == 1 || served.servesGroup(s.get(1));
                }
                gv = new GroupVersion(s.get(1), s.get(2));
                rest = s.subList(3, s.size());
            }
            case "version" -> {
                return s.size() == 1;
            }
            default -> {
                return false;
            }
        }
        if (rest.isEmpty()) {
            return served.serves(gv);
        }
        if (rest.get(0).equals("watch")) {
            rest = rest.subList(1, rest.size());
        }
        if (rest.size() >= 3 && rest.get(0).equals("namespaces") && rest.get(1).equals("{namespace}")) {
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty()) {
            return false;
        }
        return served.serves(gv, rest.get(0), rest.size() >= 3 ? rest.get(2) : "");
    }

    /** Drops the schemas that neither the paths nor a kept schema reference. */
    private static void keepReferenced(ObjectNode doc, ObjectNode schemas, String refPrefix) {
        Set<String> kept = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        Set<String> fromPaths = new LinkedHashSet<>();
        references(doc.path("paths"), refPrefix, fromPaths);
        todo.addAll(fromPaths);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            JsonNode body = schemas.get(name);
            if (body != null && kept.add(name)) {
                Set<String> more = new LinkedHashSet<>();
                references(body, refPrefix, more);
                todo.addAll(more);
            }
        }
        schemas.retain(kept);
    }

    private static void references(JsonNode n, String refPrefix, Set<String> out) {
        if (n.isObject()) {
            JsonNode ref = n.get("$ref");
            if (ref != null && ref.isString() && ref.asString().startsWith(refPrefix)) {
                out.add(ref.asString().substring(refPrefix.length()));
            }
            n.forEach(v -> references(v, refPrefix, out));
        } else if (n.isArray()) {
            n.forEach(v -> references(v, refPrefix, out));
        }
    }
}
