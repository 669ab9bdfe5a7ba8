package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.printers.PrinterColumn;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.VersionConversion;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code meta.k8s.io/v1} Table rendering for {@code kubectl get}: a Name column plus the
 * resource's {@link PrinterColumn}s, one row per object with the object as PartialObjectMetadata
 * (default), in full ({@code includeObject=Object}) or omitted ({@code None}).
 *
 * <p>Stateless and thread-safe.
 */
final class Tables {

    /** The {@code includeObject} parameter. */
    enum Include {
        NONE,
        METADATA,
        OBJECT
    }

    private Tables() {}

    static Include include(String param) {
        if (param == null || param.isEmpty() || param.equals("Metadata")) {
            return Include.METADATA;
        }
        return switch (param) {
            case "None" -> Include.NONE;
            case "Object" -> Include.OBJECT;
            default ->
                throw ApiErrors.badRequest(
                        "includeObject must be one of \"None\", \"Metadata\" or \"Object\", got \"" + param + "\"");
        };
    }

    /** A Table of {@code objects}; {@code withColumns=false} omits columnDefinitions (watch after the first). */
    static ObjectNode table(ResourceDefinition def, List<StoredObject> objects, Include include, boolean withColumns) {
        ObjectNode t = KubeJson.mapper().createObjectNode();
        t.put("kind", "Table");
        t.put("apiVersion", "meta.k8s.io/v1");
        t.putObject("metadata");
        ArrayNode cols = t.putArray("columnDefinitions");
        // a resource may place the name itself (events: last, hidden); else it comes first
        boolean implicitName = def.columns().stream().noneMatch(c -> "name".equals(c.format()));
        if (withColumns && implicitName) {
            cols.addObject()
                    .put("name", "Name")
                    .put("type", "string")
                    .put("format", "name")
                    .put(
                            "description",
                            "Name must be unique within a namespace. Is required when creating resources, "
                                    + "although some resources may allow a client to request the generation of an appropriate "
                                    + "name automatically. Name is primarily intended for creation idempotence and configuration "
                                    + "definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/"
                                    + "working-with-objects/names#names")
                    .put("priority", 0);
        }
        if (withColumns) {
            for (PrinterColumn c : def.columns()) {
                cols.addObject()
                        .put("name", c.name())
                        .put("type", c.type())
                        .put("format", c.format())
                        .put("description", c.description())
                        .put("priority", c.priority());
            }
        }
        ArrayNode rows = t.putArray("rows");
        for (StoredObject o : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            if (implicitName) {
                cells.add(o.name());
            }
            for (PrinterColumn c : def.columns()) {
                Object v = c.cell().apply(o.object());
                switch (v) {
                    case null -> cells.addNull();
                    case Long l -> cells.add(l);
                    case Integer i -> cells.add(i);
                    case Double d -> cells.add(d);
                    case Boolean b -> cells.add(b);
                    default -> cells.add(v.toString());
                }
            }
            switch (include) {
                case NONE -> {}
                case OBJECT -> row.set("object", VersionConversion.object(def, o));
                case METADATA -> {
                    ObjectNode pom = row.putObject("object");
                    pom.put("kind", "PartialObjectMetadata");
                    pom.put("apiVersion", "meta.k8s.io/v1");
                    ObjectNode meta = o.object().path("metadata").isObject()
                            ? ((ObjectNode) o.object().get("metadata")).deepCopy()
                            : pom.objectNode();
                    meta.remove("managedFields");
                    pom.set("metadata", meta);
                }
            }
        }
        return t;
    }
}
