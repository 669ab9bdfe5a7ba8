package io.kubeloop.apiserver.registry;

import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.errors.RequestEntityTooLargeException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stand-in {@link PatchApplier}: RFC 7386 merge patch and RFC 6902 JSON patch. Strategic merge
 * and server-side apply answer 415.
 *
 * <p>The server's default is {@link LibraryPatchApplier}; this class remains for tests that want no
 * managedFields bookkeeping from patches.
 *
 * <p>Stateless and thread-safe.
 */
public final class SimplePatchApplier implements PatchApplier {

    /** The real server's cap on JSON-patch operations. */
    public static final int MAX_JSON_PATCH_OPERATIONS = 10_000;

    @Override
    public ObjectNode apply(ResourceDefinition definition, ObjectNode current, PatchType type, byte[] patch,
                            String subresource, WriteContext context) {
        return switch (type) {
            case MERGE -> {
                JsonNode p = parse(patch);
                if (!p.isObject()) {
                    throw ApiErrors.badRequest("json: cannot unmarshal " + p.getNodeType().name().toLowerCase()
                            + " into Go value of type map[string]interface {}");
                }
                JsonNode r = mergePatch(current, p);
                yield (ObjectNode) r;
            }
            case JSON -> jsonPatch(definition, current, parse(patch));
            case STRATEGIC, APPLY -> throw ApiErrors.unsupportedMediaType("the body of the request was in an unknown "
                    + "format - accepted media types include: application/json-patch+json, application/merge-patch+json");
        };
    }

    private static JsonNode parse(byte[] patch) {
        try {
            JsonNode n = KubeJson.mapper().readTree(patch);
            if (n == null || n.isMissingNode()) {
                throw ApiErrors.badRequest("the patch body is empty");
            }
            return n;
        } catch (JacksonException e) {
            throw ApiErrors.badRequest("error decoding patch: " + e.getOriginalMessage());
        }
    }

    /** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
    public static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target
                : KubeJson.mapper().createObjectNode();
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }

    private static ObjectNode jsonPatch(ResourceDefinition def, ObjectNode current, JsonNode ops) {
        if (!ops.isArray()) {
            throw ApiErrors.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
        }
        if (ops.size() > MAX_JSON_PATCH_OPERATIONS) {
            throw new RequestEntityTooLargeException(Status.failure(413, "RequestEntityTooLarge",
                    "Request entity too large: The allowed maximum operations in a JSON patch is "
                            + MAX_JSON_PATCH_OPERATIONS + ", got " + ops.size()));
        }
        JsonNode doc = current;
        for (JsonNode op : ops) {
            if (!op.isObject() || !op.path("op").isString() || !op.path("path").isString()) {
                throw ApiErrors.badRequest("the server rejected our request due to an error in our request: invalid "
                        + "JSON patch operation " + op);
            }
            doc = applyOp(def, current, doc, op);
        }
        if (!(doc instanceof ObjectNode on)) {
            throw ApiErrors.badRequest("the JSON patch replaced the whole object with a non-object");
        }
        return on;
    }

    private static JsonNode applyOp(ResourceDefinition def, ObjectNode original, JsonNode doc, JsonNode op) {
        String kind = op.get("op").asString();
        List<String> path = pointer(op.get("path").asString());
        return switch (kind) {
            case "add" -> add(doc, path, requireValue(op), false, def, original);
            case "replace" -> {
                get(doc, path, def, original, "replace");
                yield add(doc, path, requireValue(op), true, def, original);
            }
            case "remove" -> remove(doc, path, def, original);
            case "test" -> {
                JsonNode actual = get(doc, path, def, original, "test");
                if (!actual.equals(requireValue(op))) {
                    throw failed(def, original, "testing value " + op.get("path").asString() + " failed: test failed");
                }
                yield doc;
            }
            case "move", "copy" -> {
                List<String> from = pointer(op.path("from").asString(""));
                JsonNode value = get(doc, from, def, original, kind).deepCopy();
                JsonNode d = kind.equals("move") ? remove(doc, from, def, original) : doc;
                yield add(d, path, value, false, def, original);
            }
            default -> throw ApiErrors.badRequest("Unexpected kind: " + kind);
        };
    }

    private static JsonNode requireValue(JsonNode op) {
        if (!op.has("value")) {
            throw ApiErrors.badRequest("missing value in JSON patch operation " + op);
        }
        return op.get("value").deepCopy();
    }

    private static InvalidException failed(ResourceDefinition def, ObjectNode original, String why) {
        String name = original == null ? "" : original.path("metadata").path("name").asString("");
        return ApiErrors.invalid(def, name, List.of(new ApiErrors.FieldError("FieldValueInvalid", "", why)));
    }

    private static List<String> pointer(String p) {
        if (p.isEmpty()) {
            return List.of();
        }
        if (!p.startsWith("/")) {
            throw ApiErrors.badRequest("JSON pointer must start with '/': " + p);
        }
        List<String> out = new ArrayList<>();
        for (String s : p.substring(1).split("/", -1)) {
            out.add(s.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    private static JsonNode get(JsonNode doc, List<String> path, ResourceDefinition def, ObjectNode original, String op) {
        JsonNode cur = doc;
        for (String seg : path) {
            cur = child(cur, seg);
            if (cur == null) {
                throw failed(def, original, op + " operation does not apply: doc is missing path: /" + String.join("/", path));
            }
        }
        return cur;
    }

    private static JsonNode child(JsonNode n, String seg) {
        if (n instanceof ObjectNode o) {
            return o.get(seg);
        }
        if (n instanceof ArrayNode a) {
            try {
                int i = Integer.parseInt(seg);
                return i >= 0 && i < a.size() ? a.get(i) : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static JsonNode add(JsonNode doc, List<String> path, JsonNode value, boolean replace, ResourceDefinition def,
                                ObjectNode original) {
        if (path.isEmpty()) {
            return value;
        }
        JsonNode parent = get(doc, path.subList(0, path.size() - 1), def, original, "add");
        String last = path.getLast();
        if (parent instanceof ObjectNode o) {
            o.set(last, value);
        } else if (parent instanceof ArrayNode a) {
            if (last.equals("-")) {
                a.add(value);
            } else {
                int i = index(last, replace ? a.size() - 1 : a.size(), def, original);
                if (replace) {
                    a.set(i, value);
                } else {
                    a.insert(i, value);
                }
            }
        } else {
            throw failed(def, original, "add operation does not apply: doc is missing path: /" + String.join("/", path));
        }
        return doc;
    }

    private static JsonNode remove(JsonNode doc, List<String> path, ResourceDefinition def, ObjectNode original) {
        get(doc, path, def, original, "remove");
        JsonNode parent = get(doc, path.subList(0, path.size() - 1), def, original, "remove");
        if (parent instanceof ObjectNode o) {
            o.remove(path.getLast());
        } else if (parent instanceof ArrayNode a) {
            a.remove(index(path.getLast(), a.size() - 1, def, original));
        }
        return doc;
    }

    private static int index(String seg, int max, ResourceDefinition def, ObjectNode original) {
        try {
            int i = Integer.parseInt(seg);
            if (i < 0 || i > max) {
                throw failed(def, original, "index out of bounds: " + seg);
            }
            return i;
        } catch (NumberFormatException e) {
            throw failed(def, original, "invalid array index: " + seg);
        }
    }
}
