package io.kubeloop.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.errors.Status;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link ResourceClient} over an {@link ApiTransport}. Immutable and thread-safe.
 */
final class DefaultResourceClient<T> implements ResourceClient<T> {

    private static final Map<String, List<String>> ACCEPT_JSON = Map.of("Accept", List.of("application/json"));

    /**
     * What a client asks the server to answer with: the object's JSON (the default), or only its
     * metadata as {@code meta.k8s.io/v1} PartialObjectMetadata(List), falling back to the object's
     * JSON from a server that cannot.
     *
     * @param one the Accept header of calls about one object and of watches
     * @param list the Accept header of lists
     */
    record Accept(Map<String, List<String>> one, Map<String, List<String>> list) {
        static final Accept JSON = new Accept(ACCEPT_JSON, ACCEPT_JSON);
        static final Accept METADATA = new Accept(
                Map.of(
                        "Accept",
                        List.of("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json")),
                Map.of(
                        "Accept",
                        List.of("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json")));
    }

    private final ApiTransport transport;
    private final ObjectCodec<T> codec;
    private final GroupVersionResource gvr;
    private final boolean namespaced;
    /** Null for cluster-scoped resources and all-namespaces clients. */
    private final String namespace;
    /** True when {@link #namespace} was chosen with inNamespace (not the default). */
    private final boolean explicitNamespace;

    private final WatchWatchdog.Limits watchLimits;
    private final Accept accept;

    DefaultResourceClient(
            ApiTransport transport,
            ObjectCodec<T> codec,
            GroupVersionResource gvr,
            boolean namespaced,
            String namespace,
            boolean explicitNamespace,
            WatchWatchdog.Limits watchLimits) {
        this(transport, codec, gvr, namespaced, namespace, explicitNamespace, watchLimits, Accept.JSON);
    }

    DefaultResourceClient(
            ApiTransport transport,
            ObjectCodec<T> codec,
            GroupVersionResource gvr,
            boolean namespaced,
            String namespace,
            boolean explicitNamespace,
            WatchWatchdog.Limits watchLimits,
            Accept accept) {
        this.accept = Objects.requireNonNull(accept, "accept");
        this.transport = transport;
        this.codec = codec;
        this.watchLimits = Objects.requireNonNull(watchLimits, "watchLimits");
        this.gvr = Objects.requireNonNull(gvr, "gvr");
        this.namespaced = namespaced;
        this.namespace = namespaced ? namespace : null;
        this.explicitNamespace = explicitNamespace;
    }

    @Override
    public GroupVersionResource resource() {
        return gvr;
    }

    @Override
    public boolean namespaced() {
        return namespaced;
    }

    @Override
    public Optional<String> namespace() {
        return Optional.ofNullable(namespace);
    }

    @Override
    public ResourceClient<T> inNamespace(String ns) {
        if (!namespaced) {
            throw new IllegalStateException(gvr + " is cluster-scoped and has no namespaces");
        }
        if (ns == null || ns.isEmpty()) {
            throw new IllegalArgumentException("namespace must not be empty; use inAnyNamespace() for all namespaces");
        }
        return new DefaultResourceClient<>(transport, codec, gvr, true, ns, true, watchLimits, accept);
    }

    @Override
    public ResourceClient<T> inAnyNamespace() {
        return new DefaultResourceClient<>(transport, codec, gvr, namespaced, null, false, watchLimits, accept);
    }

    @Override
    public T get(String name) {
        return codec.read(call("GET", uri(scopeForName("get"), name, null, Map.of()), name, null, null));
    }

    @Override
    public ObjectList<T> list(ListOptions options) {
        try (ApiResponse response = transport
                .send(new ApiRequest("GET", uri(namespace, null, null, listQuery(options)), accept.list(), null, false))
                .requireSuccess(groupResource(), null)) {
            return codec.readList(response.bytes());
        }
    }

    /**
     * Pages of DynamicObject and of generated models are read as they arrive ({@link ListDecoder}) over a
     * streaming response: with dedicated watch connections, on an HTTP/1.1 connection of their own, whose body
     * a reader thread decrypts ahead while this thread decodes (what a large page costs less CPU and memory for
     * than through the shared HTTP/2 connection, which would hand over the whole body in 16 KB frames and keep
     * it twice). Other types are read whole, as {@link #list}.
     */
    @Override
    public ListStream<T> openList(ListOptions options) {
        if (!ListDecoder.decodes(codec)) {
            return ListStream.of(list(options));
        }
        ApiRequest request =
                new ApiRequest("GET", uri(namespace, null, null, listQuery(options)), accept.list(), null, true);
        ApiResponse response = transport.send(request).requireSuccess(groupResource(), null);
        return ListDecoder.open(response, codec);
    }

    @Override
    public ObjectList<T> listAll(ListOptions options) {
        ObjectList<T> page = list(options);
        String resourceVersion = page.resourceVersion();
        List<T> items = new ArrayList<>(page.items());
        while (page.hasMore()) {
            page = list(options.toBuilder()
                    .continueToken(page.continueToken())
                    .resourceVersion(null)
                    .resourceVersionMatch(null)
                    .build());
            items.addAll(page.items());
        }
        return new ObjectList<>(items, resourceVersion, null, null);
    }

    @Override
    public Watch<T> watch(ListOptions options) {
        Map<String, String> query = listQuery(options);
        query.put("watch", "true");
        ApiRequest request = new ApiRequest("GET", uri(namespace, null, null, query), accept.one(), null, true);
        ApiResponse response = transport.send(request).requireSuccess(groupResource(), null);
        return new Watch<>(
                response,
                codec,
                watchLimits.ticker(),
                watchLimits.deadlineAfter(options),
                watchLimits.idleAfter(options));
    }

    @Override
    public T create(T object, WriteOptions options) {
        Body body = body(object);
        return codec.read(call(
                "POST",
                uri(scopeForObject(body.namespace(), "create"), null, null, writeQuery(options)),
                null,
                body.json(),
                "application/json"));
    }

    @Override
    public Scale getScale(String name) {
        return scaleOf(call("GET", uri(scopeForName("get"), name, "scale", Map.of()), name, null, null));
    }

    @Override
    public Scale scale(String name, int replicas) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas must not be negative, got " + replicas);
        }
        byte[] patch = ("{\"spec\":{\"replicas\":" + replicas + "}}").getBytes(StandardCharsets.UTF_8);
        return scaleOf(call(
                "PATCH",
                uri(scopeForName("patch"), name, "scale", Map.of()),
                name,
                patch,
                PatchType.MERGE.contentType()));
    }

    private Scale scaleOf(byte[] body) {
        JsonNode tree = codec.mapper().readTree(body);
        JsonNode meta = tree.path("metadata");
        return new Scale(
                meta.path("namespace").asString(""),
                meta.path("name").asString(""),
                meta.path("resourceVersion").asString(""),
                tree.path("spec").path("replicas").asInt(0),
                tree.path("status").path("replicas").asInt(0),
                tree.path("status").path("selector").asString(""));
    }

    @Override
    public T update(T object, WriteOptions options) {
        return put(object, null, options);
    }

    @Override
    public T updateStatus(T object, WriteOptions options) {
        return put(object, "status", options);
    }

    private T put(T object, String subresource, WriteOptions options) {
        Body body = body(object);
        String name = body.name();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("update needs metadata.name on the object");
        }
        URI uri = uri(scopeForObject(body.namespace(), "update"), name, subresource, writeQuery(options));
        return codec.read(call("PUT", uri, name, body.json(), "application/json"));
    }

    /** A request body with the namespace and name it carries (either may be null or empty). */
    private record Body(byte[] json, String namespace, String name) {}

    /**
     * The object's JSON; typed Kubernetes objects are serialized directly and their namespace and name
     * read through {@link ObjectAccess}, anything else goes through its JSON tree.
     */
    private Body body(T object) {
        if (!(object instanceof DynamicObject) && object instanceof KubernetesObject) {
            return new Body(codec.writeObject(object), ObjectAccess.namespace(object), ObjectAccess.name(object));
        }
        ObjectNode tree = codec.toTree(object);
        JsonNode meta = tree.path("metadata");
        return new Body(codec.write(tree), ObjectCodec.text(meta, "namespace"), ObjectCodec.text(meta, "name"));
    }

    @Override
    public T patch(String name, PatchType type, Object body, PatchOptions options) {
        return patch(name, null, type, body, options);
    }

    @Override
    public T patchStatus(String name, PatchType type, Object body, PatchOptions options) {
        return patch(name, "status", type, body, options);
    }

    private T patch(String name, String subresource, PatchType type, Object body, PatchOptions options) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(body, "body");
        if (type == PatchType.APPLY
                && (options.fieldManager() == null || options.fieldManager().isEmpty())) {
            throw new IllegalArgumentException("an APPLY patch needs PatchOptions.fieldManager");
        }
        if (type != PatchType.APPLY && options.force() != null) {
            throw new IllegalArgumentException("force is only allowed on APPLY patches, not " + type);
        }
        Map<String, String> query = writeQuery(options.dryRun(), options.fieldManager(), options.fieldValidation());
        if (options.force() != null) {
            query.put("force", options.force().toString());
        }
        byte[] bytes = switch (body) {
            case byte[] b -> b;
            case String s -> s.getBytes(StandardCharsets.UTF_8);
            default -> codec.mapper().writeValueAsBytes(body);
        };
        return codec.read(
                call("PATCH", uri(scopeForName("patch"), name, subresource, query), name, bytes, type.contentType()));
    }

    @Override
    public DeleteResult<T> delete(String name, DeleteOptions options) {
        ApiRequest request = request(
                "DELETE", uri(scopeForName("delete"), name, null, Map.of()), deleteBody(options), "application/json");
        try (ApiResponse response = transport.send(request).requireSuccess(groupResource(), name)) {
            byte[] body = response.bytes();
            if (body.length == 0) {
                return new DeleteResult.StatusReturned<>(
                        new Status("Status", "v1", Map.of(), Status.SUCCESS, null, null, null, response.status()));
            }
            JsonNode tree = codec.mapper().readTree(body);
            if ("Status".equals(ObjectCodec.text(tree, "kind"))) {
                return new DeleteResult.StatusReturned<>(codec.mapper().treeToValue(tree, Status.class));
            }
            return new DeleteResult.ObjectReturned<>(codec.fromTree((ObjectNode) tree));
        }
    }

    @Override
    public void deleteCollection(ListOptions listOptions, DeleteOptions deleteOptions) {
        call(
                "DELETE",
                uri(namespace, null, null, listQuery(listOptions)),
                null,
                deleteBody(deleteOptions),
                "application/json");
    }

    private byte[] deleteBody(DeleteOptions options) {
        ObjectNode body = codec.mapper().createObjectNode();
        body.put("kind", "DeleteOptions");
        body.put("apiVersion", "v1");
        if (options.gracePeriodSeconds() != null) {
            body.put("gracePeriodSeconds", options.gracePeriodSeconds());
        }
        if (options.propagationPolicy() != null) {
            body.put("propagationPolicy", options.propagationPolicy().value());
        }
        if (options.preconditionUid() != null || options.preconditionResourceVersion() != null) {
            ObjectNode pre = body.putObject("preconditions");
            if (options.preconditionUid() != null) {
                pre.put("uid", options.preconditionUid());
            }
            if (options.preconditionResourceVersion() != null) {
                pre.put("resourceVersion", options.preconditionResourceVersion());
            }
        }
        if (options.dryRun()) {
            body.putArray("dryRun").add("All");
        }
        return codec.mapper().writeValueAsBytes(body);
    }

    /** Sends a request on this resource ({@code name}: the object's name in the path, or null) and reads the reply. */
    private byte[] call(String method, URI uri, String name, byte[] body, String contentType) {
        try (ApiResponse response =
                transport.send(request(method, uri, body, contentType)).requireSuccess(groupResource(), name)) {
            return response.bytes();
        }
    }

    /** The resource requests name in errors built from a reply that is not a Status (as client-go's). */
    private GroupResource groupResource() {
        return new GroupResource(gvr.group(), gvr.resource());
    }

    private ApiRequest request(String method, URI uri, byte[] body, String contentType) {
        Map<String, List<String>> headers = new LinkedHashMap<>(accept.one());
        if (contentType != null) {
            headers.put("Content-Type", List.of(contentType));
        }
        return new ApiRequest(method, uri, headers, body, false);
    }

    private URI uri(String ns, String name, String subresource, Map<String, String> query) {
        return ResourcePaths.uri(transport.server(), gvr, ns, name, subresource, query);
    }

    /** The namespace of a call by name. */
    private String scopeForName(String verb) {
        if (namespaced && namespace == null) {
            throw new IllegalStateException(verb + " of " + gvr + " needs a namespace, but this client is for all"
                    + " namespaces: call inNamespace(ns)");
        }
        return namespace;
    }

    /** The namespace of a call with an object body. */
    private String scopeForObject(String own, String verb) {
        if (!namespaced) {
            return null;
        }
        if (own != null && !own.isEmpty()) {
            if (explicitNamespace && !own.equals(namespace)) {
                throw new IllegalArgumentException("the object's namespace \"" + own + "\" differs from this client's"
                        + " namespace \"" + namespace + "\"");
            }
            return own;
        }
        return scopeForName(verb);
    }

    private static Map<String, String> listQuery(ListOptions o) {
        Map<String, String> q = new LinkedHashMap<>();
        putIfSet(q, "labelSelector", o.labelSelector());
        putIfSet(q, "fieldSelector", o.fieldSelector());
        if (o.limit() > 0) {
            q.put("limit", Long.toString(o.limit()));
        }
        putIfSet(q, "continue", o.continueToken());
        putIfSet(q, "resourceVersion", o.resourceVersion());
        if (o.resourceVersionMatch() != null) {
            q.put("resourceVersionMatch", o.resourceVersionMatch().value());
        }
        if (o.timeout() != null) {
            q.put("timeoutSeconds", Long.toString(timeoutSeconds(o.timeout())));
        }
        if (o.allowWatchBookmarks()) {
            q.put("allowWatchBookmarks", "true");
        }
        if (o.sendInitialEvents() != null) {
            q.put("sendInitialEvents", o.sendInitialEvents().toString());
        }
        return q;
    }

    /** A watch timeout as sent: whole seconds, rounded up. */
    static long timeoutSeconds(Duration timeout) {
        return timeout.toSeconds() + (timeout.toNanosPart() > 0 ? 1 : 0);
    }

    private static Map<String, String> writeQuery(WriteOptions o) {
        return writeQuery(o.dryRun(), o.fieldManager(), o.fieldValidation());
    }

    private static Map<String, String> writeQuery(boolean dryRun, String fieldManager, FieldValidation validation) {
        Map<String, String> q = new LinkedHashMap<>();
        if (dryRun) {
            q.put("dryRun", "All");
        }
        putIfSet(q, "fieldManager", fieldManager);
        if (validation != null) {
            q.put("fieldValidation", validation.value());
        }
        return q;
    }

    private static void putIfSet(Map<String, String> q, String key, String value) {
        if (value != null && !value.isEmpty()) {
            q.put(key, value);
        }
    }
}
