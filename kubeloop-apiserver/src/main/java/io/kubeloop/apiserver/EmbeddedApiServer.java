package io.kubeloop.apiserver;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.admission.Admission;
import io.kubeloop.apiserver.internal.admission.OwnerReferencesPermissionEnforcement;
import io.kubeloop.apiserver.internal.auth.AccessControl;
import io.kubeloop.apiserver.internal.auth.AuditLog;
import io.kubeloop.apiserver.internal.auth.Authentication;
import io.kubeloop.apiserver.internal.auth.BootstrapPolicy;
import io.kubeloop.apiserver.internal.auth.ServiceAccountTokens;
import io.kubeloop.apiserver.internal.auth.StaticTokens;
import io.kubeloop.apiserver.internal.auth.StorePolicySource;
import io.kubeloop.apiserver.internal.auth.UserInfo;
import io.kubeloop.apiserver.internal.cel.CelWarmUp;
import io.kubeloop.apiserver.internal.controllers.BuiltinControllers;
import io.kubeloop.apiserver.internal.crd.CompiledSchemas;
import io.kubeloop.apiserver.internal.crd.CustomResourceDefinitions;
import io.kubeloop.apiserver.internal.crd.CustomResourceValidator;
import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import io.kubeloop.apiserver.internal.http.ApiHandler;
import io.kubeloop.apiserver.internal.http.HttpServer;
import io.kubeloop.apiserver.internal.live.ServerLiveView;
import io.kubeloop.apiserver.internal.metrics.ServerMetrics;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.storage.Change;
import io.kubeloop.apiserver.internal.storage.Journal;
import io.kubeloop.apiserver.internal.storage.Metadata;
import io.kubeloop.apiserver.internal.storage.StoreOptions;
import io.kubeloop.apiserver.internal.storage.VersionedStore;
import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.FieldValidation;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-process Kubernetes API server over HTTPS that kubectl and Java clients use unchanged.
 *
 * <pre>{@code
 * try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
 *     server.writeKubeconfig(Path.of("kubeconfig"));
 *     KubeClient client = server.client();
 * }
 * }</pre>
 *
 * <p>Starts with the namespaces default, kube-system, kube-public and kube-node-lease, and serves the
 * custom resources of every stored CustomResourceDefinition before it listens. Built-in controllers run
 * in-process (unless {@link BuiltinControllerMode#OFF}): garbage collection by ownerReferences, and the end of
 * node-bound Pods' grace periods (there is no kubelet). The CA and server certificate are generated per run.
 * {@link #client()} is one shared client, closed with the server. {@link #load(List)} stores many objects
 * fast, past admission and validation. Test support (a JUnit 5 extension, a fault-injecting proxy) is in
 * kubeloop-testing.
 *
 * <p><b>Data directory.</b> With {@link ServerOptions#dataDir()} (see {@link DataDirectory} for the
 * layout) every acknowledged write is on disk before the answer (a write-ahead log in {@code wal/}), a
 * restart serves the same objects with the same
 * resourceVersions, the CA, server certificate and token (unless one is given) are kept, so kubeconfigs
 * stay valid. If the log fails (an I/O error while appending or syncing), the failing write gets a 500,
 * writes stop, and the server closes itself; {@link #awaitStopped()} then returns the failure.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} ends all watches, stops listening and flushes the
 * log; it is idempotent and safe to call from a JVM shutdown hook.
 */
public final class EmbeddedApiServer implements AutoCloseable {

    /** The user the admin token authenticates, in {@code system:masters}. */
    public static final String ADMIN_USER = "kubernetes-admin";

    private final ServerOptions options;
    private final VersionedStore store;
    private final ObjectRegistry registry;
    private final CustomResourceDefinitions crds;
    /** Null when {@link ServerOptions#builtinControllers()} is {@link BuiltinControllerMode#OFF}. */
    private final BuiltinControllers controllers;

    private final TlsMaterial tls;
    private final HttpServer http;
    private final String token;
    private final AccessControl access;
    private volatile KubeClient client;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Guarded by this server: the live view, once served. */
    private ServerLiveView liveView;

    private final CountDownLatch stopped = new CountDownLatch(1);

    private EmbeddedApiServer(ServerOptions options) {
        this.options = options;
        // Two one-time costs of a fresh JVM run beside the store and TLS set-up: the built-in kinds' schemas
        // (the registry needs them) and readying CEL (the first CRD with rules would; nothing waits for it).
        FutureTask<BuiltinSchemas> builtinSchemas = new FutureTask<>(BuiltinSchemas::standard);
        Thread.ofPlatform().daemon().name("kubeloop-builtin-schemas").start(builtinSchemas);
        CelWarmUp.startInBackground();
        StoreOptions storeOptions = StoreOptions.defaults()
                .withHistorySize(options.historySize())
                .withWatchBufferSize(options.watchBufferSize());
        // durable state: the journal first (it locks the data directory), then TLS and token
        DataDirectory data = options.dataDir().map(DataDirectory::new).orElse(null);
        Journal journal =
                data == null ? Journal.inMemory() : options.journalFactory().apply(data.root());
        this.store = VersionedStore.open(storeOptions, journal);
        CustomResourceDefinitions started = null;
        BuiltinControllers running = null;
        try {
            this.token = data != null
                    ? data.token(options.token().orElse(null))
                    : options.token().orElseGet(DataDirectory::randomToken);
            this.tls = data != null ? data.tls() : TlsMaterial.generate();
            // one compilation of each CRD schema serves validation and serving
            CompiledSchemas schemas = new CompiledSchemas(CompiledSchemas.DEFAULT_CAPACITY);
            awaitBuiltinSchemas(builtinSchemas);
            this.registry = new ObjectRegistry(
                    store,
                    new ResourceRegistry(),
                    options.ticker(),
                    new CustomResourceValidator(options.validator(), schemas),
                    options.patcher(),
                    options.listAtZero() == ListAtZero.WHOLE_FROM_CACHE);
            createDefaultNamespaces();
            createKubernetesService();
            createBootstrapPolicy();
            // CRDs found in the store (after a restart) are served again before HTTP opens.
            started = CustomResourceDefinitions.start(registry, options.ticker(), schemas);
            this.crds = started;
            running = options.builtinControllers() == BuiltinControllerMode.RUN
                    ? BuiltinControllers.start(registry, options.ticker(), options.cluster())
                    : null;
            this.controllers = running;
            this.access = accessControl(options, store, tls, token);
            ServerMetrics metrics = new ServerMetrics(registry.resources(), store);
            store.observeCommits(options.ticker(), metrics::committed);
            this.http = new HttpServer(
                    options.bindAddress(),
                    options.port(),
                    tls,
                    new ApiHandler(
                            registry,
                            access,
                            new Admission(
                                    store,
                                    registry.resources(),
                                    options.admissionPlugins()
                                                    .contains(AdmissionPlugin.OWNER_REFERENCES_PERMISSION_ENFORCEMENT)
                                            ? Optional.of(new OwnerReferencesPermissionEnforcement(
                                                    access.authorizer(), registry.resources()))
                                            : Optional.empty()),
                            options.http(),
                            options.openApi().apply(registry.resources()),
                            options.ticker(),
                            metrics));
            http.start();
        } catch (RuntimeException e) {
            if (running != null) {
                running.close();
            }
            if (started != null) {
                started.close();
            }
            store.close(); // releases the data directory
            throw e;
        }
        store.onJournalFailure(failure -> close());
    }

    /** Waits until the built-in schemas are built, rethrowing what building them threw. */
    private static void awaitBuiltinSchemas(FutureTask<BuiltinSchemas> task) {
        try {
            task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the built-in schemas were built", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("cannot build the built-in schemas", e.getCause());
        }
    }

    /** Starts a server with {@link ServerOptions#defaults()}. */
    public static EmbeddedApiServer start() {
        return start(ServerOptions.defaults());
    }

    /** Starts a server with {@code options}. */
    public static EmbeddedApiServer start(ServerOptions options) {
        return new EmbeddedApiServer(options);
    }

    /**
     * Authentication (the admin token as {@code kubernetes-admin} in {@code system:masters}, the static token
     * file, ServiceAccount tokens signed with the CA's key, client certificates, anonymous requests), RBAC and
     * the audit log.
     */
    private static AccessControl accessControl(
            ServerOptions options, VersionedStore store, TlsMaterial tls, String adminToken) {
        StorePolicySource policy = new StorePolicySource(store);
        ServiceAccountTokens serviceAccounts = new ServiceAccountTokens(
                tls.caKey(),
                tls.caCertificate().getPublicKey(),
                List.of(ServiceAccountTokens.ISSUER),
                policy.serviceAccounts(),
                options.ticker());
        StaticTokens tokens = options.tokenAuthFile()
                .map(StaticTokens::read)
                .orElseGet(() -> new StaticTokens(Map.of()))
                .with(Map.of(adminToken, UserInfo.of(ADMIN_USER, List.of(UserInfo.MASTERS))));
        return new AccessControl(
                new Authentication(List.of(tokens, serviceAccounts), options.anonymousAuth()),
                policy,
                serviceAccounts,
                policy.serviceAccounts(),
                options.auditLog().map(AuditLog::open));
    }

    /** The bootstrap ClusterRoles and ClusterRoleBindings, each created unless one of its name exists. */
    private void createBootstrapPolicy() {
        ResourceDefinition roles = registry.resources()
                .find("rbac.authorization.k8s.io", "v1", "clusterroles")
                .orElseThrow();
        ResourceDefinition bindings = registry.resources()
                .find("rbac.authorization.k8s.io", "v1", "clusterrolebindings")
                .orElseThrow();
        for (ObjectNode role : BootstrapPolicy.clusterRoles()) {
            createIfAbsent(roles, role);
        }
        for (ObjectNode binding : BootstrapPolicy.clusterRoleBindings()) {
            createIfAbsent(bindings, binding);
        }
    }

    private void createIfAbsent(ResourceDefinition def, ObjectNode object) {
        String name = object.path("metadata").path("name").asString();
        if (store.get(def.storageId(), name).isEmpty()) {
            registry.create(
                    def, "", object, new WriteContext("kube-apiserver", null, false, FieldValidation.IGNORE, false));
        }
    }

    /** The {@code default/kubernetes} Service every cluster has, at the first address of the service range. */
    private void createKubernetesService() {
        ResourceDefinition services =
                registry.resources().find("", "v1", "services").orElseThrow();
        ObjectNode svc = KubeJson.mapper().createObjectNode();
        svc.put("apiVersion", "v1").put("kind", "Service");
        ObjectNode meta = svc.putObject("metadata");
        meta.put("name", "kubernetes").put("namespace", "default");
        meta.putObject("labels").put("component", "apiserver").put("provider", "kubernetes");
        ObjectNode spec = svc.putObject("spec");
        spec.put("clusterIP", "10.96.0.1");
        spec.putArray("ports")
                .addObject()
                .put("name", "https")
                .put("port", 443)
                .put("protocol", "TCP")
                .put("targetPort", 6443);
        if (store.get(services.storageId(), "default/kubernetes").isEmpty()) {
            registry.create(
                    services,
                    "default",
                    svc,
                    new WriteContext("kube-apiserver", null, false, FieldValidation.IGNORE, false));
        }
    }

    private void createDefaultNamespaces() {
        ResourceDefinition ns =
                registry.resources().find("", "v1", "namespaces").orElseThrow();
        for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            if (store.get(ns.storageId(), name).isEmpty()) {
                ObjectNode body = KubeJson.mapper().createObjectNode();
                body.putObject("metadata").put("name", name);
                registry.create(
                        ns, "", body, new WriteContext("kube-apiserver", null, false, FieldValidation.IGNORE, false));
            }
        }
    }

    /**
     * Serves a live view of this server on plain HTTP at {@code address} (port 0: a free one), for a
     * browser on this machine: a page at {@code /} of the stored resources with their object counts and
     * open watches, and a feed of the latest changes, updated every second without reloading. It reads
     * the store directly and asks for no credentials, so bind it to loopback. It stops with the server.
     *
     * @return the address it listens on
     * @throws IllegalStateException when it is already served, or the server is closed
     * @throws java.io.UncheckedIOException when the address cannot be bound, naming it
     */
    public synchronized InetSocketAddress serveLiveView(InetSocketAddress address) {
        if (closing.get()) {
            throw new IllegalStateException("the server is closed");
        }
        if (liveView != null) {
            throw new IllegalStateException("the live view is already served on " + liveView.address());
        }
        liveView = ServerLiveView.start(address, registry.resources(), store, url(), options.ticker());
        return liveView.address();
    }

    /** The server's base URL, e.g. {@code https://127.0.0.1:41234}. */
    public URI url() {
        String host = options.bindAddress().contains(":") ? "[" + options.bindAddress() + "]" : options.bindAddress();
        if (host.equals("0.0.0.0")) {
            host = "127.0.0.1";
        }
        return URI.create("https://" + host + ":" + http.address().getPort());
    }

    /** The bearer token clients must send. */
    public String token() {
        return token;
    }

    /** The CA certificate (PEM) clients trust. */
    public String caPem() {
        return tls.caPem();
    }

    /** The resource layer; this module's tests reach it through their own helper. */
    ObjectRegistry registry() {
        return registry;
    }

    /** The store; this module's tests reach it through their own helper. */
    VersionedStore store() {
        return store;
    }

    /**
     * Stores {@code objects} as they are, straight into the server's storage: each is created, or replaces
     * the stored object of the same resource, namespace and name. Meant for loading many objects fast
     * (benchmarks, test fixtures); clients see the result as ordinary objects, and watches get
     * {@code ADDED} or {@code MODIFIED} events.
     *
     * <p><b>Invariants.</b> Each object names its {@code apiVersion}, {@code kind} and
     * {@code metadata.name}, and {@code metadata.namespace} when its kind is namespaced; its kind is one
     * the server serves. The server stamps a new {@code resourceVersion} on each object and changes
     * nothing else: no admission, validation, defaulting, {@code managedFields}, {@code uid} or
     * {@code creationTimestamp}, and no check that the namespace exists. Every object is checked before
     * the first is stored, so a malformed list stores nothing; after that the objects are committed one
     * by one, in list order (one revision each), not as one transaction. The nodes are not retained; the
     * caller may reuse them after the call.
     *
     * <p><b>Thread safety.</b> Safe to call from several threads at once (and alongside requests):
     * writes to the same object are serialized, the last one wins.
     *
     * @throws IllegalArgumentException when an object lacks a required field or its kind is not served
     */
    public void load(List<ObjectNode> objects) {
        List<ResourceDefinition> defs = new ArrayList<>(objects.size());
        List<String> keys = new ArrayList<>(objects.size());
        List<ResourceDefinition> served = registry.resources().all();
        for (ObjectNode o : objects) {
            String apiVersion = o.path("apiVersion").asString("");
            String kind = o.path("kind").asString("");
            String name = o.path("metadata").path("name").asString("");
            String namespace = o.path("metadata").path("namespace").asString("");
            ResourceDefinition def = served.stream()
                    .filter(d -> d.apiVersion().equals(apiVersion) && d.kind().equals(kind))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("kind not served: " + apiVersion + " " + kind));
            if (name.isEmpty()) {
                throw new IllegalArgumentException("metadata.name missing in a " + kind);
            }
            if (def.namespaced() && namespace.isEmpty()) {
                throw new IllegalArgumentException("metadata.namespace missing in " + kind + " " + name);
            }
            defs.add(def);
            keys.add(Metadata.key(def.namespaced() ? namespace : "", name));
        }
        for (int i = 0; i < objects.size(); i++) {
            ObjectNode copy = objects.get(i).deepCopy();
            store.write(defs.get(i).storageId(), keys.get(i), current -> Change.put(copy));
        }
    }

    /** A kubeconfig (YAML) with CA data, server URL, token and a current context named {@code kubeloop}. */
    public String kubeconfig() {
        return Kubeconfig.render(url(), caPem(), token);
    }

    /**
     * A kubeconfig like {@link #kubeconfig()} with another bearer token: a ServiceAccount's (from a
     * TokenRequest, {@code kubectl create token}) or a user's of the {@linkplain ServerOptions#withTokenAuthFile
     * token file}.
     */
    public String kubeconfig(String bearerToken) {
        return Kubeconfig.render(url(), caPem(), bearerToken);
    }

    /**
     * A kubeconfig that authenticates as {@code user} in {@code groups} with an x509 client certificate the
     * server's CA signed now (CN = user, O = each group; valid for a year): what kubeadm writes for an
     * administrator, and a way to test a controller as a plain user. RBAC decides what it may do.
     */
    public String clientCertificateKubeconfig(String user, List<String> groups) {
        TlsMaterial.ClientCertificate cert = tls.issueClient(user, groups, Duration.ofDays(365));
        return Kubeconfig.render(url(), caPem(), cert.certificatePem(), cert.privateKeyPem());
    }

    /**
     * Writes {@link #kubeconfig()} to {@code file}: created {@code 0600}, missing parent directories {@code 0700},
     * where the file system has POSIX permissions ({@link Kubeconfig#write}).
     */
    public Path writeKubeconfig(Path file) {
        return Kubeconfig.write(kubeconfig(), file);
    }

    /**
     * Writes a serving certificate for {@code localhost} and {@code 127.0.0.1}, signed by this server's
     * CA, as {@code tls.crt} and {@code tls.key} (PEM, PKCS#8) into {@code directory}, where a webhook
     * server reads them; returns the {@code caBundle} a webhook configuration or a CRD's conversion
     * webhook trusts them with (the CA's PEM, base64), as envtest does for webhooks.
     *
     * @throws java.io.UncheckedIOException when the files cannot be written
     */
    public String writeServingCertificate(Path directory) {
        return writeServingCertificate(directory, List.of());
    }

    /**
     * As {@link #writeServingCertificate(Path)}, the certificate also valid for {@code dnsNames}, e.g.
     * {@code my-webhook.my-namespace.svc} for a webhook configuration that names a Service (the server calls
     * such a webhook at the address of the Service's endpoints and checks the certificate against the
     * Service's DNS name).
     */
    public String writeServingCertificate(Path directory, List<String> dnsNames) {
        TlsMaterial.ClientCertificate cert = tls.issueServing(dnsNames);
        try {
            PrivateFiles.createDirectories(directory);
            PrivateFiles.write(
                    directory.resolve("tls.crt"), cert.certificatePem().getBytes(StandardCharsets.UTF_8));
            PrivateFiles.write(
                    directory.resolve("tls.key"), cert.privateKeyPem().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(caPem().getBytes(StandardCharsets.UTF_8));
    }

    /** A client configuration for this server (CA trust + bearer token, namespace default). */
    public ClientConfig clientConfig() {
        return new ClientConfig(
                url(),
                SslContextBuilder.create()
                        .trustCertificates(List.of(tls.caCertificate()))
                        .build(),
                null,
                AuthProvider.bearer(token),
                "default",
                null,
                "embedded API server " + url());
    }

    /** The shared kubeloop client for this server (created on first use, closed with the server). */
    public KubeClient client() {
        KubeClient c = client;
        if (c == null) {
            synchronized (this) {
                c = client;
                if (c == null) {
                    c = KubeClient.create(clientConfig(), ClientOptions.defaults());
                    client = c;
                }
            }
        }
        return c;
    }

    /**
     * Stops the server: closes the shared client, ends every watch, stops listening (in-flight requests
     * get up to 2 s), then closes the audit log (a request still answered later is not audited), flushes and
     * closes the write-ahead log and releases the data directory.
     * Idempotent; a second caller returns at once. Safe from a JVM shutdown hook (it registers nothing
     * and waits only for the server's own threads).
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        try {
            ServerLiveView view;
            synchronized (this) {
                view = liveView;
            }
            if (view != null) {
                view.close();
            }
            KubeClient c = client;
            if (c != null) {
                c.close();
            }
            if (controllers != null) {
                controllers.close();
            }
            crds.close();
            store.closeAllWatchers();
            try {
                http.close();
            } finally {
                // after HTTP: the requests answered while it stops (the watches just ended) are audited too
                access.close();
                store.close();
            }
        } finally {
            stopped.countDown();
        }
    }

    /**
     * Blocks until the server is closed, by {@link #close()} or because its write-ahead log failed.
     *
     * @return the log failure that stopped the server, or empty after a plain {@link #close()}
     */
    public Optional<RuntimeException> awaitStopped() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return store.failure();
    }
}
