package io.kubeloop.apiserver.internal.openapi;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.OpenApiSchemas;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the paths and components of one group version's OpenAPI document (v3 or v2), shaped as
 * kube-apiserver's: per kind the collection path (list, create, deletecollection), the item path
 * (read, replace, patch, delete), for namespaced kinds the all-namespaces list, and status/scale
 * subresource paths; each operation with {@code x-kubernetes-action},
 * {@code x-kubernetes-group-version-kind}, inline query parameters (the PATCH one declaring
 * {@code fieldValidation}) and, on PATCH, the accepted patch content types (strategic merge for
 * built-ins only). Operations exist only for the verbs the kind serves.
 *
 * <p>Not thread-safe: one instance per document.
 */
final class OpenApiDocument {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> PATCH_TYPES =
            List.of("application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml");
    private static final String SMP = "application/strategic-merge-patch+json";

    private final OpenApiSchemas schemas;
    private final Map<String, ObjectNode> paths = new TreeMap<>();

    OpenApiDocument(boolean v2) {
        this.schemas = new OpenApiSchemas(v2);
    }

    OpenApiSchemas schemas() {
        return schemas;
    }

    Map<String, ObjectNode> paths() {
        return paths;
    }

    /** Adds one kind: its schema definitions and its operations. */
    void add(ServedKind kind) {
        String kindName = kindDefinition(kind);
        String listName = listDefinition(kind, kindName);
        GroupVersionKind gvk = kind.gvk();
        String prefix = gvk.group().isEmpty() ? "/api/" + gvk.version() : "/apis/" + gvk.group() + "/" + gvk.version();
        String collection = kind.namespaced()
                ? prefix + "/namespaces/{namespace}/" + kind.resource()
                : prefix + "/" + kind.resource();
        String item = collection + "/{name}";
        String scope = kind.namespaced() ? "Namespaced" : "";
        String gv = opPrefix(kind);
        List<String> verbs = kind.verbs();

        ObjectNode coll =
                pathItem(collection, kind.namespaced(), false, kind.gvk().kind());
        if (verbs.contains("list")) {
            coll.set("get", op(kind, "list", "list" + gv + scope + gvk.kind(), listName, List.of("list")));
        }
        if (verbs.contains("create")) {
            ObjectNode post = op(kind, "post", "create" + gv + scope + gvk.kind(), kindName, List.of("create"));
            body(post, List.of("application/json", "application/yaml"), kindName);
            post.withObject("responses").set("201", response("Created", kindName));
            post.withObject("responses").set("202", response("Accepted", kindName));
            coll.set("post", post);
        }
        if (verbs.contains("deletecollection")) {
            coll.set(
                    "delete",
                    op(
                            kind,
                            "deletecollection",
                            "deletecollection" + gv + scope + gvk.kind(),
                            OpenApiSchemas.STATUS,
                            List.of("list", "dryRun")));
        }
        if (kind.namespaced() && verbs.contains("list")) {
            ObjectNode all = pathItem(prefix + "/" + kind.resource(), false, false, gvk.kind());
            all.set("get", op(kind, "list", "list" + gv + gvk.kind() + "ForAllNamespaces", listName, List.of("list")));
        }
        addItemOperations(kind, item, "", kindName);
        for (String sub : kind.subresources()) {
            String target = sub.equals("status") ? kindName : scaleDefinition();
            addItemOperations(kind, item + "/" + sub, sub, target);
        }
    }

    private void addItemOperations(ServedKind kind, String path, String sub, String target) {
        GroupVersionKind gvk = kind.gvk();
        String scope = kind.namespaced() ? "Namespaced" : "";
        String suffix = sub.isEmpty() ? "" : Character.toUpperCase(sub.charAt(0)) + sub.substring(1);
        String id = opPrefix(kind) + scope + gvk.kind() + suffix;
        ObjectNode item = pathItem(path, kind.namespaced(), true, gvk.kind());
        List<String> verbs = kind.verbs();
        if (verbs.contains("get")) {
            item.set("get", op(kind, "get", "read" + id, target, List.of()));
        }
        if (verbs.contains("update")) {
            ObjectNode put = op(kind, "put", "replace" + id, target, List.of("write"));
            body(put, List.of("application/json", "application/yaml"), target);
            put.withObject("responses").set("201", response("Created", target));
            item.set("put", put);
        }
        if (verbs.contains("patch")) {
            ObjectNode patch = op(kind, "patch", "patch" + id, target, List.of("write", "force"));
            List<String> types = new ArrayList<>(PATCH_TYPES);
            if (kind.builtin()) {
                types.add(SMP);
            }
            body(patch, types, OpenApiSchemas.PATCH);
            patch.withObject("responses").set("201", response("Created", target));
            item.set("patch", patch);
        }
        if (verbs.contains("delete") && sub.isEmpty()) {
            ObjectNode delete = op(kind, "delete", "delete" + id, OpenApiSchemas.STATUS, List.of("delete", "dryRun"));
            delete.withObject("responses").set("202", response("Accepted", OpenApiSchemas.STATUS));
            item.set("delete", delete);
        }
    }

    /** {@code CoreV1}, {@code AppsV1}, {@code CoordinationV1} for built-ins; empty for CRDs, as the real server names them. */
    private static String opPrefix(ServedKind kind) {
        if (!kind.builtin()) {
            return "";
        }
        String group =
                kind.gvk().group().isEmpty() ? "core" : kind.gvk().group().split("\\.")[0];
        return capitalize(group) + capitalize(kind.gvk().version());
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    private ObjectNode pathItem(String path, boolean namespaced, boolean named, String kind) {
        return paths.computeIfAbsent(path, p -> {
            ObjectNode item = F.objectNode();
            ArrayNode params = item.putArray("parameters");
            if (named) {
                params.add(pathParam("name", "name of the " + kind));
            }
            if (namespaced) {
                params.add(pathParam("namespace", "object name and auth scope, such as for teams and projects"));
            }
            params.add(queryParam("pretty", "string", "If 'true', then the output is pretty printed."));
            return item;
        });
    }

    private ObjectNode op(
            ServedKind kind, String action, String operationId, String responseDefinition, List<String> paramSets) {
        ObjectNode op = F.objectNode();
        op.put("operationId", operationId);
        op.put("description", action + " " + kind.gvk().kind());
        op.set(OpenApiSchemas.GVK_EXTENSION, OpenApiSchemas.gvkNode(kind.gvk()));
        op.put("x-kubernetes-action", action);
        ArrayNode params = op.putArray("parameters");
        for (String set : paramSets) {
            switch (set) {
                case "list" -> {
                    params.add(queryParam(
                            "allowWatchBookmarks",
                            "boolean",
                            "allowWatchBookmarks requests watch events with type \"BOOKMARK\"."));
                    params.add(queryParam(
                            "continue",
                            "string",
                            "The continue option should be set when retrieving more results from the server."));
                    params.add(queryParam(
                            "fieldSelector",
                            "string",
                            "A selector to restrict the list of returned objects by their fields."));
                    params.add(queryParam(
                            "labelSelector",
                            "string",
                            "A selector to restrict the list of returned objects by their labels."));
                    params.add(queryParam(
                            "limit", "integer", "limit is a maximum number of responses to return for a list call."));
                    params.add(
                            queryParam(
                                    "resourceVersion",
                                    "string",
                                    "resourceVersion sets a constraint on what resource versions a request may be served from."));
                    params.add(queryParam(
                            "resourceVersionMatch",
                            "string",
                            "resourceVersionMatch determines how resourceVersion is applied to list calls."));
                    params.add(queryParam(
                            "sendInitialEvents",
                            "boolean",
                            "`sendInitialEvents=true` may be set together with `watch=true`."));
                    params.add(queryParam("timeoutSeconds", "integer", "Timeout for the list/watch call."));
                    params.add(queryParam("watch", "boolean", "Watch for changes to the described resources."));
                }
                case "create", "write" -> {
                    params.add(queryParam(
                            "dryRun", "string", "When present, indicates that modifications should not be persisted."));
                    params.add(
                            queryParam(
                                    "fieldManager",
                                    "string",
                                    "fieldManager is a name associated with the actor or entity that is making these changes."));
                    params.add(
                            queryParam(
                                    "fieldValidation",
                                    "string",
                                    "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict"));
                }
                case "force" ->
                    params.add(queryParam("force", "boolean", "Force is going to \"force\" Apply requests."));
                case "dryRun" -> {
                    if (!params.toString().contains("\"dryRun\"")) {
                        params.add(queryParam(
                                "dryRun",
                                "string",
                                "When present, indicates that modifications should not be persisted."));
                    }
                }
                case "delete" -> {
                    params.add(queryParam(
                            "gracePeriodSeconds",
                            "integer",
                            "The duration in seconds before the object should be deleted."));
                    params.add(
                            queryParam("orphanDependents", "boolean", "Deprecated: please use the PropagationPolicy."));
                    params.add(queryParam(
                            "propagationPolicy", "string", "Whether and how garbage collection will be performed."));
                }
                default -> throw new IllegalStateException("unknown parameter set " + set);
            }
        }
        ObjectNode responses = op.putObject("responses");
        responses.set("200", response("OK", responseDefinition));
        responses.set("401", F.objectNode().put("description", "Unauthorized"));
        return op;
    }

    private void body(ObjectNode op, List<String> contentTypes, String definition) {
        if (schemas.v2()) {
            ArrayNode consumes = op.putArray("consumes");
            contentTypes.forEach(consumes::add);
            ArrayNode params = (ArrayNode) op.get("parameters");
            ObjectNode body =
                    F.objectNode().put("name", "body").put("in", "body").put("required", true);
            body.set("schema", schemas.refNode(definition));
            params.insert(0, body);
            return;
        }
        ObjectNode rb = op.putObject("requestBody");
        ObjectNode content = rb.putObject("content");
        for (String type : contentTypes) {
            content.putObject(type).set("schema", schemas.refNode(definition));
        }
        rb.put("required", true);
    }

    private ObjectNode response(String description, String definition) {
        ObjectNode r = F.objectNode().put("description", description);
        if (schemas.v2()) {
            r.set("schema", schemas.refNode(definition));
            return r;
        }
        ObjectNode content = r.putObject("content");
        for (String type : List.of("application/json", "application/yaml")) {
            content.putObject(type).set("schema", schemas.refNode(definition));
        }
        return r;
    }

    private ObjectNode pathParam(String name, String description) {
        ObjectNode p = F.objectNode()
                .put("name", name)
                .put("in", "path")
                .put("description", description)
                .put("required", true);
        typed(p, "string");
        return p;
    }

    private ObjectNode queryParam(String name, String type, String description) {
        ObjectNode p = F.objectNode().put("name", name).put("in", "query").put("description", description);
        typed(p, type);
        return p;
    }

    private void typed(ObjectNode p, String type) {
        if (schemas.v2()) {
            p.put("type", type).put("uniqueItems", true);
        } else {
            p.putObject("schema").put("type", type).put("uniqueItems", true);
        }
    }

    // ---- schemas -------------------------------------------------------------------------------

    /** The kind's definition name, defined and tagged with its GVK. */
    private String kindDefinition(ServedKind kind) {
        StructuralSchema s = kind.schema();
        if (kind.builtin() && s != null && !s.definitionName().isEmpty()) {
            schemas.require(s);
            schemas.tagKind(s.definitionName(), kind.gvk());
            return s.definitionName();
        }
        String name = modelName(kind.gvk());
        ObjectNode body;
        if (s == null || (schemas.v2() && s.preserveUnknownFields())) {
            body = JsonNodeFactory.instance.objectNode().put("type", "object");
        } else {
            body = schemas.body(s);
            ObjectNode props = body.withObject("properties");
            addTypeMeta(props);
            props.set(
                    "metadata",
                    schemas.propertyRef(
                            OpenApiSchemas.OBJECT_META,
                            "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"));
            schemas.require(BuiltinSchemas.objectMeta());
        }
        schemas.define(name, body);
        schemas.tagKind(name, kind.gvk());
        return name;
    }

    private String listDefinition(ServedKind kind, String kindName) {
        GroupVersionKind listGvk =
                new GroupVersionKind(kind.gvk().group(), kind.gvk().version(), kind.listKind());
        if (kind.builtin()) {
            var list = BuiltinSchemas.forKind(listGvk);
            if (list.isPresent() && !list.get().definitionName().isEmpty()) {
                schemas.require(list.get());
                schemas.tagKind(list.get().definitionName(), listGvk);
                return list.get().definitionName();
            }
        }
        String name = modelName(listGvk);
        ObjectNode body = F.objectNode()
                .put("type", "object")
                .put(
                        "description",
                        kind.listKind() + " is a list of " + kind.gvk().kind());
        body.putArray("required").add("items");
        ObjectNode props = body.putObject("properties");
        addTypeMeta(props);
        ObjectNode items = props.putObject("items").put("type", "array");
        items.set("items", schemas.refNode(kindName));
        props.set("metadata", schemas.propertyRef(OpenApiSchemas.LIST_META, "Standard list metadata."));
        schemas.require(BuiltinSchemas.standard().definitions().get(OpenApiSchemas.LIST_META));
        schemas.define(name, body);
        schemas.tagKind(name, listGvk);
        return name;
    }

    /** The fixed meta definitions every document references (Status, Patch, DeleteOptions). */
    void addCommonDefinitions() {
        Map<String, StructuralSchema> builtins = BuiltinSchemas.standard().definitions();
        schemas.require(builtins.get(OpenApiSchemas.STATUS));
        schemas.require(builtins.get(OpenApiSchemas.DELETE_OPTIONS));
        schemas.define(
                OpenApiSchemas.PATCH,
                F.objectNode()
                        .put("type", "object")
                        .put(
                                "description",
                                "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body."));
    }

    private String scaleDefinition() {
        String name = "io.k8s.api.autoscaling.v1.Scale";
        if (!schemas.definitions().containsKey(name)) {
            ObjectNode scale = F.objectNode()
                    .put("type", "object")
                    .put("description", "Scale represents a scaling request for a resource.");
            ObjectNode props = scale.putObject("properties");
            addTypeMeta(props);
            props.set("metadata", schemas.propertyRef(OpenApiSchemas.OBJECT_META, ""));
            ObjectNode spec = props.putObject("spec").put("type", "object");
            spec.putObject("properties")
                    .putObject("replicas")
                    .put("type", "integer")
                    .put("format", "int32");
            ObjectNode status = props.putObject("status").put("type", "object");
            status.putArray("required").add("replicas");
            ObjectNode sp = status.putObject("properties");
            sp.putObject("replicas").put("type", "integer").put("format", "int32");
            sp.putObject("selector").put("type", "string");
            schemas.require(BuiltinSchemas.objectMeta());
            schemas.define(name, scale);
            schemas.tagKind(name, new GroupVersionKind("autoscaling", "v1", "Scale"));
        }
        return name;
    }

    private static void addTypeMeta(ObjectNode props) {
        props.putObject("apiVersion")
                .put("type", "string")
                .put("description", "APIVersion defines the versioned schema of this representation of an object.");
        props.putObject("kind")
                .put("type", "string")
                .put("description", "Kind is a string value representing the REST resource this object represents.");
    }

    /** The real server's model name of a custom kind: the group reversed, then version and kind ({@code com.example.v1.Foo}). */
    static String modelName(GroupVersionKind gvk) {
        List<String> parts = new ArrayList<>(List.of(gvk.group().split("\\.")));
        Collections.reverse(parts);
        return String.join(".", parts) + "." + gvk.version() + "." + gvk.kind();
    }

    /** {@code api/v1} or {@code apis/<group>/<version>}, the key of a group version in {@code /openapi/v3}. */
    static String groupVersionPath(GroupVersion gv) {
        return gv.isCore() ? "api/" + gv.version() : "apis/" + gv.group() + "/" + gv.version();
    }
}
