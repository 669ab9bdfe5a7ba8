package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.admission.Admission;
import io.kubeloop.apiserver.internal.admission.AdmissionRequest;
import io.kubeloop.apiserver.internal.auth.AccessReviews;
import io.kubeloop.apiserver.internal.auth.RequestAttributes;
import io.kubeloop.apiserver.internal.auth.RoleRefs;
import io.kubeloop.apiserver.internal.auth.UserInfo;
import io.kubeloop.apiserver.internal.protobuf.ProtobufBodies;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ListParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.VersionConversion;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.ListPage;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request on a resource URL: maps the method to the verb and writes the answer.
 *
 * <p><b>Thread safety.</b> Confined to the request thread.
 */
final class ResourceRequest {

    private static final String JSON = "application/json";

    private final ApiHandler handler;
    private final ResourceRoute route;
    private final ResourceDefinition def;
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Accepts accepts;
    private final Fields query;
    private final UserInfo user;
    /** What the request asks, as it was authorized. */
    private final RequestAttributes attributes;

    private final Consumer<String> createdName;

    ResourceRequest(
            ApiHandler handler,
            ResourceRoute route,
            Request request,
            Response response,
            Callback callback,
            Accepts accepts,
            RequestAttributes attributes,
            Consumer<String> createdName) {
        this.handler = handler;
        this.route = route;
        this.def = route.definition();
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.accepts = accepts;
        this.query = Request.extractQueryParameters(request);
        this.attributes = attributes;
        this.user = attributes.user();
        this.createdName = createdName;
    }

    /**
     * The write context of this request: mutating webhooks before validation; after it, RBAC's checks on writes
     * of RBAC objects, then — when an update or patch is about to create its object — the authorization of
     * {@code create}, then validating admission (the enabled plugins, ValidatingAdmissionPolicies and validating
     * webhooks; on deletes too), in kube-apiserver's order.
     */
    private WriteContext writeContext() {
        WriteContext ctx = QueryParams.writeContext(query, request);
        boolean rbac = def.group().equals("rbac.authorization.k8s.io");
        Admission admission = handler.admission();
        if (admission.callsWebhooks()) {
            ctx.admitOutsideLock();
            ctx.mutation(
                    (d, object, old) -> admission.mutate(admissionRequest(d, object, old, ctx), object, ctx::warn));
        }
        boolean createsOnWrite =
                attributes.verb().equals("update") || attributes.verb().equals("patch");
        ctx.admission((d, object, old) -> {
            if (rbac && object != null) {
                RoleRefs.checkUnchanged(d, object, old);
                handler.access()
                        .checkEscalation(
                                user,
                                d.plural(),
                                route.namespace() == null ? "" : route.namespace(),
                                attributes.name(),
                                object,
                                old);
            }
            if (createsOnWrite && object != null && old == null) {
                handler.access().authorizeCreateOnUpdate(attributes);
            }
            admission.validate(admissionRequest(d, object, old, ctx), ctx::warn);
        });
        return ctx;
    }

    private AdmissionRequest admissionRequest(
            ResourceDefinition d, ObjectNode object, ObjectNode old, WriteContext ctx) {
        return new AdmissionRequest(
                d,
                object == null ? "DELETE" : old == null ? "CREATE" : "UPDATE",
                route.namespace(),
                (object == null ? old : object).path("metadata").path("name").asString(""),
                route.subresource(),
                object,
                old,
                user,
                ctx.dryRun());
    }

    void serve() {
        ObjectRegistry registry = handler.registry();
        String method = request.getMethod();
        boolean item = route.name() != null;
        String ns = route.namespace();
        if (def.namespaced() && ns == null && item) {
            ApiHandler.notFound(response, callback);
            return;
        }
        if (route.legacyWatch() && !method.equals("GET")) {
            throw ApiErrors.methodNotAllowed(method, def.plural());
        }
        if (item
                && !def.custom()
                && def.group().isEmpty()
                && def.plural().equals("pods")
                && PodSubresources.NAMES.contains(route.subresource())) {
            servePodSubresource(method, registry, ns);
            return;
        }
        switch (method) {
            case "GET" -> {
                // a named object is watched only under the legacy watch/ path: GET NAME?watch=true is a get
                boolean watch = route.legacyWatch() || !item && QueryParams.bool(query.getValue("watch"));
                if (watch) {
                    ListParams p = QueryParams.listParams(query, true);
                    if (item) {
                        p = withNameSelector(p, route.name());
                    }
                    ChunkedWatch.stream(
                            handler,
                            route,
                            p,
                            accepts,
                            accepts.table() ? Tables.include(query.getValue("includeObject")) : null,
                            response,
                            callback);
                } else if (item) {
                    if (route.subresource().equals("scale")) {
                        sendScale(200, handler.scales().get(def, ns, route.name()), Map.of());
                        return;
                    }
                    StoredObject o = registry.get(def, ns, route.name());
                    if (accepts.table()) {
                        table(List.of(o), null);
                    } else {
                        sendObject(200, o, Map.of());
                    }
                } else {
                    ListPage page = registry.list(def, ns, QueryParams.listParams(query, false));
                    if (accepts.table()) {
                        table(page.items(), page);
                    } else {
                        sendList(page);
                    }
                }
            }
            case "POST" -> {
                if (item && route.subresource().equals("token") && def.group().isEmpty()) {
                    ObjectNode body = Bodies.object(body(), contentType());
                    ok(
                            201,
                            KubeJson.mapper()
                                    .writeValueAsBytes(
                                            handler.access().tokenRequests().create(ns, route.name(), body)),
                            Map.of());
                    return;
                }
                if (!item && AccessReviews.isReview(def.group(), def.plural())) {
                    if (def.namespaced() && ns == null) {
                        throw ApiErrors.methodNotAllowed("create", def.plural());
                    }
                    ObjectNode body = Bodies.object(body(), contentType());
                    ok(
                            201,
                            KubeJson.mapper()
                                    .writeValueAsBytes(
                                            handler.access().reviews().answer(def.plural(), ns, body, user)),
                            Map.of());
                    return;
                }
                if (item) {
                    throw ApiErrors.methodNotAllowed(
                            "create", def.plural() + (route.subresource().isEmpty() ? "" : "/" + route.subresource()));
                }
                if (def.namespaced() && ns == null) {
                    throw ApiErrors.methodNotAllowed("create", def.plural());
                }
                WriteContext ctx = writeContext();
                byte[] raw = body();
                ObjectNode body = Bodies.object(raw, contentType());
                Bodies.recordDuplicateFields(ctx, raw, contentType());
                ObjectRegistry.Written w = registry.create(def, ns, body, ctx);
                createdName.accept(w.object().name());
                sendObject(201, w.object(), warnings(ctx));
            }
            case "PUT" -> {
                if (!item) {
                    throw ApiErrors.methodNotAllowed("update", def.plural());
                }
                WriteContext ctx = writeContext();
                byte[] raw = body();
                ObjectNode body = Bodies.object(raw, contentType());
                Bodies.recordDuplicateFields(ctx, raw, contentType());
                if (route.subresource().equals("scale")) {
                    sendScale(200, handler.scales().update(def, ns, route.name(), body, ctx), warnings(ctx));
                    return;
                }
                ObjectRegistry.Written w = registry.update(def, ns, route.name(), route.subresource(), body, ctx);
                sendObject(w.created() ? 201 : 200, w.object(), warnings(ctx));
            }
            case "PATCH" -> {
                if (!item) {
                    throw ApiErrors.methodNotAllowed("patch", def.plural());
                }
                WriteContext ctx = writeContext();
                byte[] body = Bodies.patch(body(), contentType());
                Bodies.recordDuplicateFields(ctx, body, contentType());
                if (route.subresource().equals("scale")) {
                    sendScale(
                            200,
                            handler.scales().patch(def, ns, route.name(), contentType(), body, ctx),
                            warnings(ctx));
                    return;
                }
                ObjectRegistry.Written w =
                        registry.patch(def, ns, route.name(), route.subresource(), contentType(), body, ctx);
                sendObject(w.created() ? 201 : 200, w.object(), warnings(ctx));
            }
            case "DELETE" -> {
                WriteContext ctx = writeContext();
                DeleteParams opts = QueryParams.deleteParams(query, body(), contentType());
                if (!item) {
                    List<StoredObject> gone =
                            registry.deleteCollection(def, ns, QueryParams.listParams(query, false), opts, ctx);
                    sendList(new ListPage(gone, registry.store().currentRevision(), null, null));
                    return;
                }
                if (!route.subresource().isEmpty()) {
                    throw ApiErrors.methodNotAllowed("delete", def.plural() + "/" + route.subresource());
                }
                ObjectRegistry.Written w = registry.delete(def, ns, route.name(), opts, ctx);
                if (w.deleted() && !def.deleteReturnsObject()) {
                    ObjectNode status = KubeJson.mapper().createObjectNode();
                    status.put("kind", "Status").put("apiVersion", "v1").putObject("metadata");
                    status.put("status", "Success");
                    ObjectNode details = status.putObject("details");
                    details.put("name", route.name())
                            .put("group", def.group())
                            .put("kind", def.plural())
                            .put(
                                    "uid",
                                    w.object()
                                            .object()
                                            .path("metadata")
                                            .path("uid")
                                            .asString(""));
                    ok(200, KubeJson.mapper().writeValueAsBytes(status), Map.of());
                } else {
                    sendObject(200, w.object(), Map.of());
                }
            }
            default -> throw ApiErrors.methodNotAllowed(method, def.plural());
        }
    }

    private static ListParams withNameSelector(ListParams p, String name) {
        String fs = "metadata.name=" + name
                + (p.fieldSelector() == null || p.fieldSelector().isEmpty() ? "" : "," + p.fieldSelector());
        return new ListParams(
                p.resourceVersion(),
                p.resourceVersionMatch(),
                p.limit(),
                p.continueToken(),
                p.labelSelector(),
                fs,
                true,
                p.allowWatchBookmarks(),
                p.sendInitialEvents(),
                p.timeoutSeconds());
    }

    private void table(List<StoredObject> objects, ListPage page) {
        ObjectNode t = Tables.table(def, objects, Tables.include(query.getValue("includeObject")), true);
        ObjectNode meta = (ObjectNode) t.get("metadata");
        if (page != null) {
            meta.put("resourceVersion", Long.toString(page.resourceVersion()));
            if (page.continueToken() != null) {
                meta.put("continue", page.continueToken());
            }
            if (page.remainingItemCount() != null) {
                meta.put("remainingItemCount", page.remainingItemCount());
            }
        } else {
            meta.put("resourceVersion", Long.toString(objects.getFirst().resourceVersion()));
        }
        ApiHandler.send(
                response,
                callback,
                200,
                "application/json;as=Table;v=v1;g=meta.k8s.io",
                KubeJson.mapper().writeValueAsBytes(t),
                Map.of());
    }

    private Map<String, String> warnings(WriteContext ctx) {
        if (ctx.warnings().isEmpty()) {
            return Map.of();
        }
        Map<String, String> h = new LinkedHashMap<>();
        h.put(
                "Warning",
                String.join(
                        ", ",
                        ctx.warnings().stream()
                                .map(w -> "299 - \"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                                .toList()));
        return h;
    }

    /** {@code pods/log} (GET), {@code pods/binding} and {@code pods/eviction} (POST); other methods are 405. */
    private void servePodSubresource(String method, ObjectRegistry registry, String ns) {
        String sub = route.subresource();
        boolean allowed = sub.equals("log") ? method.equals("GET") : method.equals("POST");
        if (!allowed) {
            throw ApiErrors.methodNotAllowed(method, def.plural() + "/" + sub);
        }
        switch (sub) {
            case "log" ->
                ApiHandler.send(
                        response,
                        callback,
                        200,
                        "text/plain",
                        PodSubresources.log(registry, def, ns, route.name(), query.getValue("container")),
                        Map.of());
            case "binding" ->
                ok(
                        201,
                        KubeJson.mapper()
                                .writeValueAsBytes(PodSubresources.bind(
                                        registry, def, ns, route.name(), Bodies.object(body(), contentType()))),
                        Map.of());
            default ->
                ok(
                        201,
                        KubeJson.mapper()
                                .writeValueAsBytes(PodSubresources.evict(
                                        registry,
                                        def,
                                        registry.resources()
                                                .find("policy", "v1", "poddisruptionbudgets")
                                                .orElse(null),
                                        ns,
                                        route.name(),
                                        Bodies.object(body(), contentType()))),
                        Map.of());
        }
    }

    private void ok(int code, byte[] body, Map<String, String> headers) {
        ApiHandler.send(response, callback, code, JSON, body, headers);
    }

    /** Sends one object of the resource in the form negotiated from Accept. */
    private void sendObject(int code, StoredObject o, Map<String, String> headers) {
        // metadata is the same in every served version: PartialObjectMetadata needs no conversion
        byte[] json =
                accepts.target() == Accepts.Target.PARTIAL_OBJECT_METADATA ? o.json() : VersionConversion.json(def, o);
        sendOne(code, json, PartialObjects.goType(def, false), headers);
    }

    /** Sends a Scale (an {@code autoscaling/v1} Scale) in the form negotiated from Accept. */
    private void sendScale(int code, ObjectNode scale, Map<String, String> headers) {
        sendOne(code, KubeJson.mapper().writeValueAsBytes(scale), "*autoscaling.Scale", headers);
    }

    /**
     * Sends one object's JSON as is, or as PartialObjectMetadata; PartialObjectMetadataList is a 406
     * naming {@code goType}, as kube-apiserver answers once it has the object. (Table answers to writes
     * are the object itself.)
     */
    private void sendOne(int code, byte[] json, String goType, Map<String, String> headers) {
        switch (accepts.target()) {
            case PARTIAL_OBJECT_METADATA -> ok(code, PartialObjects.of(accepts.targetApiVersion(), json), headers);
            case PARTIAL_OBJECT_METADATA_LIST -> throw PartialObjects.notAList(goType);
            case OBJECT, TABLE -> ok(code, json, headers);
        }
    }

    /**
     * Sends a LIST body, as the resource's list or as a PartialObjectMetadataList (PartialObjectMetadata
     * is a 406 once the list is read, as on kube-apiserver): in one piece with a {@code Content-Length}
     * when it fits in one {@link ListBody} chunk, else chunk by chunk (chunked transfer encoding on HTTP/1.1) with the next
     * chunk encoded while one is written (at most two in memory), so a large list is never whole in memory. Up to
     * the first write a failure still becomes a Status; after it the response can only be aborted (the
     * client sees a truncated body and a broken stream), as with kube-apiserver's streaming encoder.
     */
    private void sendList(ListPage page) {
        ListBody body = switch (accepts.target()) {
            case PARTIAL_OBJECT_METADATA -> throw PartialObjects.aList(def);
            case PARTIAL_OBJECT_METADATA_LIST ->
                ListBody.partialObjectMetadata(
                        def, accepts.targetApiVersion(), page, handler.options().listChunkBytes());
            case OBJECT, TABLE -> new ListBody(def, page, handler.options().listChunkBytes());
        };
        byte[] chunk = body.next();
        byte[] following = body.next();
        if (following == null) {
            ok(200, chunk, Map.of());
            return;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        try {
            while (following != null) {
                try (Blocker.Callback written = Blocker.callback()) {
                    response.write(false, ByteBuffer.wrap(chunk), written);
                    written.block();
                }
                chunk = following;
                following = body.next();
            }
            response.write(true, ByteBuffer.wrap(chunk), callback);
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
        }
    }

    private String contentType() {
        return request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    /** Custom resources take no protobuf (their scale subresource, a built-in Scale, does), as on a real server. */
    private void refuseProtobufForCustomResources() {
        if (def.custom()
                && !route.subresource().equals("scale")
                && ProtobufBodies.isProtobuf(Bodies.mediaType(contentType()))) {
            throw ApiErrors.unsupportedMediaType(ProtobufBodies.UNSUPPORTED);
        }
    }

    private byte[] body() {
        refuseProtobufForCustomResources();
        return Bodies.read(Request.asInputStream(request), handler.options().maxBodyBytes());
    }
}
