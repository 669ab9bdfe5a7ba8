package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes the discovery documents: legacy {@code APIVersions}, {@code APIGroupList},
 * {@code APIResourceList}, aggregated {@code APIGroupDiscoveryList} (v2 and v2beta1 share the shape
 * kubeloop reads) and {@code version.Info}. Stateless.
 */
final class DiscoveryJson {

    /** The Accept header client-go sends to {@code /api} and {@code /apis}: aggregated first, legacy last. */
    static final String ACCEPT_AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
            + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
            + "application/json";

    private DiscoveryJson() {}

    /** The result of one aggregated document, converted to the legacy model. */
    record Aggregated(
            List<APIGroup> groups,
            Map<GroupVersion, APIResourceList> resources,
            Map<GroupVersion, RuntimeException> failures) {}

    /**
     * True when the Content-Type says the body is an aggregated discovery list:
     * {@code application/json} with parameters {@code g=apidiscovery.k8s.io}, {@code v=v2} (or
     * {@code v2beta1}) and {@code as=APIGroupDiscoveryList} in any order, other parameters ignored.
     */
    static boolean isAggregated(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";");
        if (!parts[0].trim().toLowerCase(Locale.ROOT).equals("application/json")) {
            return false;
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq < 0) {
                continue;
            }
            String value = parts[i].substring(eq + 1).trim();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            params.put(parts[i].substring(0, eq).trim().toLowerCase(Locale.ROOT), value);
        }
        String v = params.get("v");
        return "apidiscovery.k8s.io".equals(params.get("g"))
                && ("v2".equals(v) || "v2beta1".equals(v))
                && "APIGroupDiscoveryList".equals(params.get("as"));
    }

    /**
     * Converts an aggregated list the way client-go does: stale versions become failures and are left
     * out of the group; resources and subresources without a response kind are dropped; a group whose
     * versions are all stale is left out.
     */
    static Aggregated parseAggregated(byte[] body, String source) {
        JsonNode root = read(body, source);
        List<APIGroup> groups = new ArrayList<>();
        Map<GroupVersion, APIResourceList> resources = new LinkedHashMap<>();
        Map<GroupVersion, RuntimeException> failures = new LinkedHashMap<>();
        for (JsonNode item : root.path("items").values()) {
            String group = text(item.path("metadata"), "name");
            List<String> versions = new ArrayList<>();
            for (JsonNode v : item.path("versions").values()) {
                GroupVersion gv = groupVersion(group, text(v, "version"), source);
                if ("Stale".equals(text(v, "freshness"))) {
                    failures.put(gv, new DiscoveryException("stale GroupVersion discovery: " + gv));
                    continue;
                }
                versions.add(gv.version());
                List<APIResource> list = new ArrayList<>();
                for (JsonNode r : v.path("resources").values()) {
                    String name = text(r, "resource");
                    String singular = text(r, "singularResource");
                    boolean namespaced = "Namespaced".equals(text(r, "scope"));
                    GroupVersionKind kind = responseKind(r.path("responseKind"));
                    if (kind != null && !name.isEmpty()) {
                        list.add(new APIResource(
                                gv,
                                name,
                                singular,
                                namespaced,
                                kind,
                                strings(r, "verbs"),
                                strings(r, "shortNames"),
                                strings(r, "categories")));
                    }
                    for (JsonNode s : r.path("subresources").values()) {
                        GroupVersionKind subKind = responseKind(s.path("responseKind"));
                        String sub = text(s, "subresource");
                        if (subKind != null && !name.isEmpty() && !sub.isEmpty()) {
                            list.add(new APIResource(
                                    gv,
                                    name + "/" + sub,
                                    singular,
                                    namespaced,
                                    subKind,
                                    strings(s, "verbs"),
                                    List.of(),
                                    List.of()));
                        }
                    }
                }
                resources.put(gv, new APIResourceList(gv, list));
            }
            if (!versions.isEmpty()) {
                groups.add(new APIGroup(group, versions, versions.getFirst()));
            }
        }
        return new Aggregated(groups, resources, failures);
    }

    /** The versions of a legacy {@code APIVersions} document ({@code GET /api}). */
    static List<String> parseApiVersions(byte[] body, String source) {
        return strings(read(body, source), "versions");
    }

    /** The groups of a legacy {@code APIGroupList} ({@code GET /apis}, or {@code servergroups.json}). */
    static List<APIGroup> parseGroupList(byte[] body, String source) {
        JsonNode root = read(body, source);
        if (!root.path("groups").isArray()) {
            throw new DiscoveryException(source + " is not an APIGroupList: it has no \"groups\" array");
        }
        List<APIGroup> groups = new ArrayList<>();
        for (JsonNode g : root.path("groups").values()) {
            String name = text(g, "name");
            List<String> versions = new ArrayList<>();
            for (JsonNode v : g.path("versions").values()) {
                versions.add(text(v, "version"));
            }
            if (versions.isEmpty()) {
                continue;
            }
            String preferred = text(g.path("preferredVersion"), "version");
            groups.add(new APIGroup(name, versions, versions.contains(preferred) ? preferred : versions.getFirst()));
        }
        return groups;
    }

    /**
     * A legacy {@code APIResourceList}. A resource's {@code group} and {@code version} fields, when set,
     * name the group and version of its kind; empty ones default to the list's. Entries without a
     * kind are dropped.
     */
    static APIResourceList parseResourceList(byte[] body, GroupVersion expected, String source) {
        JsonNode root = read(body, source);
        String declared = text(root, "groupVersion");
        if (!declared.isEmpty() && !declared.equals(expected.apiVersion())) {
            throw new DiscoveryException(source + " describes " + declared + ", expected " + expected.apiVersion());
        }
        List<APIResource> list = new ArrayList<>();
        for (JsonNode r : root.path("resources").values()) {
            String name = text(r, "name");
            String kind = text(r, "kind");
            if (name.isEmpty() || kind.isEmpty()) {
                continue;
            }
            String group = text(r, "group");
            String version = text(r, "version");
            GroupVersionKind gvk = new GroupVersionKind(
                    group.isEmpty() ? expected.group() : group, version.isEmpty() ? expected.version() : version, kind);
            list.add(new APIResource(
                    expected,
                    name,
                    text(r, "singularName"),
                    r.path("namespaced").asBoolean(false),
                    gvk,
                    strings(r, "verbs"),
                    strings(r, "shortNames"),
                    strings(r, "categories")));
        }
        return new APIResourceList(expected, list);
    }

    /** {@code GET /version}. */
    static ServerVersion parseVersion(byte[] body, String source) {
        JsonNode n = read(body, source);
        return new ServerVersion(
                text(n, "major"),
                text(n, "minor"),
                text(n, "gitVersion"),
                text(n, "gitCommit"),
                text(n, "gitTreeState"),
                text(n, "buildDate"),
                text(n, "goVersion"),
                text(n, "compiler"),
                text(n, "platform"));
    }

    /** An {@code APIGroupList} as kubectl writes {@code servergroups.json}. */
    static byte[] writeGroupList(List<APIGroup> groups) {
        ObjectNode root = KubeJson.mapper().createObjectNode();
        root.put("kind", "APIGroupList");
        root.put("apiVersion", "v1");
        ArrayNode array = root.putArray("groups");
        for (APIGroup g : groups) {
            ObjectNode gn = array.addObject();
            gn.put("name", g.name());
            ArrayNode versions = gn.putArray("versions");
            for (GroupVersion gv : g.groupVersions()) {
                versions.addObject().put("groupVersion", gv.apiVersion()).put("version", gv.version());
            }
            gn.putObject("preferredVersion")
                    .put("groupVersion", g.preferredGroupVersion().apiVersion())
                    .put("version", g.preferredVersion());
        }
        return KubeJson.mapper().writeValueAsBytes(root);
    }

    /** An {@code APIResourceList} as kubectl writes {@code serverresources.json}. */
    static byte[] writeResourceList(APIResourceList list) {
        ObjectNode root = KubeJson.mapper().createObjectNode();
        root.put("kind", "APIResourceList");
        root.put("apiVersion", "v1");
        root.put("groupVersion", list.groupVersion().apiVersion());
        ArrayNode array = root.putArray("resources");
        for (APIResource r : list.resources()) {
            ObjectNode rn = array.addObject();
            rn.put("name", r.name());
            rn.put("singularName", r.singularName());
            rn.put("namespaced", r.namespaced());
            if (!r.responseKind().group().isEmpty()) {
                rn.put("group", r.responseKind().group());
            }
            rn.put("version", r.responseKind().version());
            rn.put("kind", r.kind());
            ArrayNode verbs = rn.putArray("verbs");
            r.verbs().forEach(verbs::add);
            if (!r.shortNames().isEmpty()) {
                ArrayNode shortNames = rn.putArray("shortNames");
                r.shortNames().forEach(shortNames::add);
            }
            if (!r.categories().isEmpty()) {
                ArrayNode categories = rn.putArray("categories");
                r.categories().forEach(categories::add);
            }
        }
        return KubeJson.mapper().writeValueAsBytes(root);
    }

    private static JsonNode read(byte[] body, String source) {
        try {
            JsonNode root = KubeJson.mapper().readTree(body);
            if (root == null || !root.isObject()) {
                throw new DiscoveryException(source + " is not a JSON object");
            }
            return root;
        } catch (JacksonException e) {
            throw new DiscoveryException(source + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static GroupVersion groupVersion(String group, String version, String source) {
        try {
            return new GroupVersion(group, version);
        } catch (IllegalArgumentException e) {
            throw new DiscoveryException(
                    source + " has a bad group version \"" + group + "/" + version + "\": " + e.getMessage(), e);
        }
    }

    private static GroupVersionKind responseKind(JsonNode n) {
        String version = text(n, "version");
        String kind = text(n, "kind");
        if (version.isEmpty() || kind.isEmpty()) {
            return null;
        }
        return new GroupVersionKind(text(n, "group"), version, kind);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? "" : v.asString();
    }

    private static List<String> strings(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isArray()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(v.size());
        for (JsonNode e : v.values()) {
            if (e.isValueNode() && !e.isNull()) {
                out.add(e.asString());
            }
        }
        return out;
    }
}
