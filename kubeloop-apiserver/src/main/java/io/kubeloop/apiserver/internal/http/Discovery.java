package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Discovery documents: legacy {@code /api}, {@code /apis}, {@code /apis/{g}},
 * {@code /api/v1}, {@code /apis/{g}/{v}}, and the aggregated {@code APIGroupDiscoveryList} of
 * {@code /api} and {@code /apis}. Documents are built once per {@link ResourceRegistry#revision()} and
 * carry an ETag.
 *
 * <p><b>Thread safety.</b> Thread-safe (a concurrent cache keyed by registry revision).
 */
final class Discovery {

    /** A serialized document and its quoted ETag. */
    record Doc(byte[] body, String etag) {}

    private final ResourceRegistry registry;
    private final Map<String, Doc> cache = new ConcurrentHashMap<>();
    private volatile long cachedRevision = -1;

    Discovery(ResourceRegistry registry) {
        this.registry = registry;
    }

    private Doc cached(String key, Supplier<ObjectNode> build) {
        long rev = registry.revision();
        if (rev != cachedRevision) {
            cache.clear();
            cachedRevision = rev;
        }
        return cache.computeIfAbsent(key, k -> {
            byte[] body = KubeJson.mapper().writeValueAsBytes(build.get());
            return new Doc(body, "\"" + sha256(body) + "\"");
        });
    }

    private static String sha256(byte[] b) {
        try {
            return HexFormat.of()
                    .withUpperCase()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Doc apiVersions() {
        return cached("api", () -> {
            ObjectNode n = KubeJson.mapper().createObjectNode();
            n.put("kind", "APIVersions");
            n.putArray("versions").add("v1");
            ArrayNode sa = n.putArray("serverAddressByClientCIDRs");
            sa.addObject().put("clientCIDR", "0.0.0.0/0").put("serverAddress", "127.0.0.1");
            return n;
        });
    }

    Doc groupList() {
        return cached("apis", () -> {
            ObjectNode n = KubeJson.mapper().createObjectNode();
            n.put("kind", "APIGroupList");
            n.put("apiVersion", "v1");
            ArrayNode groups = n.putArray("groups");
            for (ResourceRegistry.Group g : registry.groups()) {
                groups.add(group(g));
            }
            return n;
        });
    }

    Doc group(String name) {
        return registry.group(name)
                .map(g -> cached("group/" + name, () -> {
                    ObjectNode n = group(g);
                    n.put("kind", "APIGroup");
                    n.put("apiVersion", "v1");
                    return n;
                }))
                .orElse(null);
    }

    private static ObjectNode group(ResourceRegistry.Group g) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("name", g.name());
        ArrayNode vs = n.putArray("versions");
        for (String v : g.versions()) {
            vs.addObject().put("groupVersion", g.name() + "/" + v).put("version", v);
        }
        n.putObject("preferredVersion")
                .put("groupVersion", g.name() + "/" + g.preferredVersion())
                .put("version", g.preferredVersion());
        return n;
    }

    Doc resourceList(String group, String version) {
        List<ResourceDefinition> defs = registry.inGroupVersion(group, version);
        if (defs.isEmpty()) {
            return null;
        }
        return cached("rl/" + group + "/" + version, () -> {
            ObjectNode n = KubeJson.mapper().createObjectNode();
            n.put("kind", "APIResourceList");
            n.put("apiVersion", "v1");
            n.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
            ArrayNode rs = n.putArray("resources");
            for (ResourceDefinition d : defs) {
                ObjectNode r = rs.addObject();
                r.put("name", d.plural());
                r.put("singularName", d.singular());
                r.put("namespaced", d.namespaced());
                r.put("kind", d.kind());
                strings(r.putArray("verbs"), d.verbs());
                if (!d.shortNames().isEmpty()) {
                    strings(r.putArray("shortNames"), d.shortNames());
                }
                if (!d.categories().isEmpty()) {
                    strings(r.putArray("categories"), d.categories());
                }
                r.put(
                        "storageVersionHash",
                        sha256((d.group() + "/" + d.storageVersion() + "/" + d.kind()).getBytes(StandardCharsets.UTF_8))
                                .substring(0, 11));
                for (String sub : d.subresources().stream().sorted().toList()) {
                    ObjectNode s = rs.addObject();
                    s.put("name", d.plural() + "/" + sub);
                    s.put("singularName", "");
                    s.put("namespaced", d.namespaced());
                    if (sub.equals("scale")) {
                        s.put("group", "autoscaling");
                        s.put("version", "v1");
                        s.put("kind", "Scale");
                    } else if (sub.equals("token")) {
                        s.put("group", "authentication.k8s.io");
                        s.put("version", "v1");
                        s.put("kind", "TokenRequest");
                    } else if (sub.equals("eviction")) {
                        s.put("group", "policy");
                        s.put("version", "v1");
                        s.put("kind", "Eviction");
                    } else if (sub.equals("binding")) {
                        s.put("kind", "Binding");
                    } else {
                        s.put("kind", d.kind());
                    }
                    strings(s.putArray("verbs"), subresourceVerbs(sub));
                }
            }
            return n;
        });
    }

    /** {@code APIGroupDiscoveryList} of the core group ({@code core}) or all named groups. */
    Doc aggregated(boolean core, String discoveryVersion) {
        return cached("agg/" + core + "/" + discoveryVersion, () -> {
            ObjectNode n = KubeJson.mapper().createObjectNode();
            n.put("kind", "APIGroupDiscoveryList");
            n.put("apiVersion", "apidiscovery.k8s.io/" + discoveryVersion);
            n.putObject("metadata");
            ArrayNode items = n.putArray("items");
            if (core) {
                ObjectNode item = items.addObject();
                item.putObject("metadata").putNull("creationTimestamp");
                addVersion(item.putArray("versions"), "", "v1");
            } else {
                for (ResourceRegistry.Group g : registry.groups()) {
                    ObjectNode item = items.addObject();
                    item.putObject("metadata").put("name", g.name()).putNull("creationTimestamp");
                    ArrayNode versions = item.putArray("versions");
                    for (String v : g.versions()) {
                        addVersion(versions, g.name(), v);
                    }
                }
            }
            return n;
        });
    }

    private void addVersion(ArrayNode versions, String group, String version) {
        ObjectNode v = versions.addObject();
        v.put("version", version);
        ArrayNode rs = v.putArray("resources");
        for (ResourceDefinition d : registry.inGroupVersion(group, version)) {
            ObjectNode r = rs.addObject();
            r.put("resource", d.plural());
            r.putObject("responseKind")
                    .put("group", d.group())
                    .put("version", d.version())
                    .put("kind", d.kind());
            r.put("scope", d.namespaced() ? "Namespaced" : "Cluster");
            r.put("singularResource", d.singular());
            strings(r.putArray("verbs"), d.verbs());
            if (!d.shortNames().isEmpty()) {
                strings(r.putArray("shortNames"), d.shortNames());
            }
            if (!d.categories().isEmpty()) {
                strings(r.putArray("categories"), d.categories());
            }
            if (!d.subresources().isEmpty()) {
                ArrayNode subs = r.putArray("subresources");
                for (String sub : d.subresources().stream().sorted().toList()) {
                    ObjectNode s = subs.addObject();
                    s.put("subresource", sub);
                    ObjectNode rk = s.putObject("responseKind");
                    if (sub.equals("scale")) {
                        rk.put("group", "autoscaling").put("version", "v1").put("kind", "Scale");
                    } else if (sub.equals("token")) {
                        rk.put("group", "authentication.k8s.io")
                                .put("version", "v1")
                                .put("kind", "TokenRequest");
                    } else if (sub.equals("eviction")) {
                        rk.put("group", "policy").put("version", "v1").put("kind", "Eviction");
                    } else if (sub.equals("binding")) {
                        rk.put("group", "").put("version", "v1").put("kind", "Binding");
                    } else {
                        rk.put("group", d.group()).put("version", d.version()).put("kind", d.kind());
                    }
                    strings(s.putArray("verbs"), subresourceVerbs(sub));
                }
            }
        }
        v.put("freshness", "Current");
    }

    /** The verbs of a subresource: {@code finalize} is updated, {@code token} created, the others read and written. */
    private static List<String> subresourceVerbs(String sub) {
        return switch (sub) {
            case "finalize" -> List.of("update");
            case "token", "binding", "eviction" -> List.of("create");
            case "log" -> List.of("get");
            default -> List.of("get", "patch", "update");
        };
    }

    private static void strings(ArrayNode a, List<String> values) {
        values.forEach(a::add);
    }
}
