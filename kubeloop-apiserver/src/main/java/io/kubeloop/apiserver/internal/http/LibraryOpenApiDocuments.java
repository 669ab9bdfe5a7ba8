package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.openapi.OpenApiV2;
import io.kubeloop.apiserver.internal.openapi.OpenApiV3;
import io.kubeloop.apiserver.internal.registry.CustomResourceSchemas;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.ServedResources;
import io.kubeloop.time.Ticker;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link OpenApiDocuments} from the schema library, over the served resources:
 * <ul>
 *   <li>{@code GET /openapi/v3}: the root, one {@code serverRelativeURL} with {@code ?hash=} per group
 *       version;</li>
 *   <li>{@code GET /openapi/v3/<api/v1 | apis/g/v>}: the group version's document with a quoted {@code ETag};
 *       with the current {@code ?hash=} also {@code Cache-Control: public, immutable} and a one-year
 *       {@code Expires}; with another hash a 301 to the current URL; without one a plain 200;</li>
 *   <li>{@code GET /openapi/v2}: by {@code Accept} as kube-openapi negotiates it ({@link OpenApiV2#negotiate}):
 *       the Swagger 2.0 JSON, or the gnostic protobuf kubectl 1.27/1.28 ask for (from the encoder given at
 *       construction; 406 without one), or 406 for anything else.</li>
 * </ul>
 * The built-in group versions are the release's own documents, limited to the resources and
 * subresources the registry serves ({@link OpenApiV3#documents(List, ServedResources)},
 * {@link OpenApiV2#document(List, ServedResources)}); custom resources carry the schema
 * {@link CustomResourceSchemas} knows (else a free-form object).
 *
 * <p>Documents are built on the first request after {@link ResourceRegistry#revision()} changed (a CRD was
 * established, changed or removed), never per request, so their hashes change exactly when the served set
 * does.
 *
 * <p><b>Thread safety.</b> Thread-safe: requests read an immutable snapshot; rebuilds are serialized by a
 * lock.
 */
public final class LibraryOpenApiDocuments implements OpenApiDocuments {

    private static final String JSON = "application/json";
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
            .withZone(ZoneOffset.UTC);

    private final ResourceRegistry resources;
    private final CustomResourceSchemas customSchemas;
    private final Function<ObjectNode, byte[]> v2Protobuf;
    private final Ticker clock;
    private final ReentrantLock lock = new ReentrantLock();
    /** The documents of {@link Snapshot#revision}; replaced under {@link #lock}. */
    private volatile Snapshot snapshot;
    /** The v2 document of {@link V2#revision}, built on first request; replaced under {@link #lock}. */
    private volatile V2 v2;

    private record Snapshot(long revision, List<ServedKind> kinds, ServedResources served, OpenApiV3.Documents v3) {}

    private record V2(long revision, byte[] json, String etag, byte[] protobuf) {}

    /**
     * Documents over {@code resources}.
     *
     * @param customSchemas the custom resources' schemas
     * @param v2Protobuf encodes the v2 document as gnostic protobuf (e.g. {@code OpenApiV2::protobuf}),
     *        or null when not available (protobuf-only requests then get 406)
     * @param clock for {@code Expires}
     */
    public LibraryOpenApiDocuments(
            ResourceRegistry resources,
            CustomResourceSchemas customSchemas,
            Function<ObjectNode, byte[]> v2Protobuf,
            Ticker clock) {
        this.resources = Objects.requireNonNull(resources, "resources");
        this.customSchemas = Objects.requireNonNull(customSchemas, "customSchemas");
        this.v2Protobuf = v2Protobuf;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Documents over {@code resources} with custom resources' schemas from {@code customSchemas}, no v2 protobuf. */
    public LibraryOpenApiDocuments(ResourceRegistry resources, CustomResourceSchemas customSchemas) {
        this(resources, customSchemas, null, Ticker.system());
    }

    /** The served kinds as the documents see them (built-ins with schema, custom ones with what is known). */
    public static List<ServedKind> servedKinds(ResourceRegistry resources, CustomResourceSchemas customSchemas) {
        List<ServedKind> out = new ArrayList<>();
        for (ResourceDefinition d : resources.all()) {
            GroupVersionKind gvk = new GroupVersionKind(d.group(), d.version(), d.kind());
            List<String> subresources = d.subresources().stream()
                    .filter(s -> s.equals("status") || s.equals("scale"))
                    .sorted()
                    .toList();
            if (d.custom()) {
                out.add(new ServedKind(
                        gvk,
                        d.plural(),
                        d.namespaced(),
                        d.verbs(),
                        customSchemas.schemaOf(d).orElse(null),
                        false,
                        subresources));
            } else {
                out.add(new ServedKind(
                        gvk,
                        d.plural(),
                        d.namespaced(),
                        d.verbs(),
                        BuiltinSchemas.forKind(gvk).orElse(null),
                        true,
                        subresources));
            }
        }
        return out;
    }

    /** The built-in resources and every subresource of theirs the registry serves. */
    static ServedResources servedResources(ResourceRegistry resources) {
        Map<GroupVersion, Map<String, Set<String>>> out = new HashMap<>();
        for (ResourceDefinition d : resources.all()) {
            if (!d.custom()) {
                out.computeIfAbsent(new GroupVersion(d.group(), d.version()), gv -> new HashMap<>())
                        .put(d.plural(), d.subresources());
            }
        }
        return new ServedResources(out);
    }

    @Override
    public Optional<Reply> serve(String path, String query, String accept) {
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        if (p.equals("/openapi/v2")) {
            return Optional.of(v2(accept));
        }
        if (p.equals("/openapi/v3")) {
            return Optional.of(new Reply(200, JSON, current().v3().root(), Map.of()));
        }
        if (!p.startsWith("/openapi/v3/")) {
            return Optional.empty();
        }
        Optional<OpenApiV3.Document> found = current().v3().find(p.substring("/openapi/v3/".length()));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        OpenApiV3.Document doc = found.get();
        String hash = queryParam(query, "hash");
        if (hash != null && !hash.equals(doc.hash())) {
            return Optional.of(new Reply(
                    301, "text/html; charset=utf-8", new byte[0], Map.of("Location", doc.serverRelativeUrl())));
        }
        String etag = "\"" + doc.hash() + "\"";
        Map<String, String> headers = hash == null
                ? Map.of("ETag", etag, "Vary", "Accept")
                : Map.of(
                        "ETag",
                        etag,
                        "Vary",
                        "Accept",
                        "Cache-Control",
                        "public, immutable",
                        "Expires",
                        HTTP_DATE.format(clock.instant().plus(365, ChronoUnit.DAYS)));
        return Optional.of(new Reply(200, JSON, doc.json(), headers));
    }

    private Reply v2(String accept) {
        Optional<String> type = OpenApiV2.negotiate(accept);
        if (type.isEmpty()) {
            return new Reply(
                    406,
                    "text/plain; charset=utf-8",
                    ("/openapi/v2 is served as " + JSON + " and " + OpenApiV2.PROTOBUF + "\n")
                            .getBytes(StandardCharsets.UTF_8),
                    Map.of());
        }
        boolean protobuf = !type.get().equals(OpenApiV2.JSON);
        V2 doc = currentV2(protobuf);
        Map<String, String> headers = Map.of("ETag", "\"" + doc.etag() + "\"", "Vary", "Accept");
        if (!protobuf) {
            return new Reply(200, JSON, doc.json(), headers);
        }
        if (doc.protobuf() == null) {
            return new Reply(
                    406,
                    "text/plain; charset=utf-8",
                    ("/openapi/v2 is served as " + JSON + " only: this server has no protobuf encoder\n")
                            .getBytes(StandardCharsets.UTF_8),
                    Map.of());
        }
        return new Reply(200, OpenApiV2.PROTOBUF, doc.protobuf(), headers);
    }

    private Snapshot current() {
        Snapshot s = snapshot;
        long rev = resources.revision();
        if (s != null && s.revision() == rev) {
            return s;
        }
        lock.lock();
        try {
            s = snapshot;
            rev = resources.revision();
            if (s == null || s.revision() != rev) {
                List<ServedKind> kinds = servedKinds(resources, customSchemas);
                ServedResources served = servedResources(resources);
                s = new Snapshot(rev, kinds, served, OpenApiV3.documents(kinds, served));
                snapshot = s;
            }
            return s;
        } finally {
            lock.unlock();
        }
    }

    private V2 currentV2(boolean needProtobuf) {
        Snapshot s = current();
        V2 d = v2;
        if (d != null
                && d.revision() == s.revision()
                && (!needProtobuf || d.protobuf() != null || v2Protobuf == null)) {
            return d;
        }
        lock.lock();
        try {
            d = v2;
            if (d == null
                    || d.revision() != s.revision()
                    || needProtobuf && d.protobuf() == null && v2Protobuf != null) {
                ObjectNode document = OpenApiV2.document(s.kinds(), s.served());
                byte[] json = KubeJson.mapper().writeValueAsBytes(document);
                byte[] proto = needProtobuf && v2Protobuf != null ? v2Protobuf.apply(document) : null;
                d = new V2(s.revision(), json, sha512(json), proto);
                v2 = d;
            }
            return d;
        } finally {
            lock.unlock();
        }
    }

    private static String sha512(byte[] b) {
        try {
            return HexFormat.of()
                    .withUpperCase()
                    .formatHex(MessageDigest.getInstance("SHA-512").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is missing from this JDK", e);
        }
    }

    private static String queryParam(String query, String name) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (k.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
