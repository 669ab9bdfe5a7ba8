package io.kubeloop.apiserver;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.crd.CustomResourceDefinitions;
import io.kubeloop.apiserver.crd.CustomResourceValidator;
import io.kubeloop.apiserver.http.ApiHandler;
import io.kubeloop.apiserver.http.HttpServer;
import io.kubeloop.apiserver.http.TlsMaterial;
import io.kubeloop.apiserver.registry.ObjectRegistry;
import io.kubeloop.apiserver.registry.ResourceDefinition;
import io.kubeloop.apiserver.registry.ResourceRegistry;
import io.kubeloop.apiserver.registry.WriteContext;
import io.kubeloop.apiserver.storage.Journal;
import io.kubeloop.apiserver.storage.StoreOptions;
import io.kubeloop.apiserver.storage.VersionedStore;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
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
 * custom resources of every stored CustomResourceDefinition before it listens. The CA and server
 * certificate are generated per run. {@link #client()} is one shared client, closed with the server.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #close()} ends all watches and stops listening.
 */
public final class EmbeddedApiServer implements AutoCloseable {

    private final ServerOptions options;
    private final VersionedStore store;
    private final ObjectRegistry registry;
    private final CustomResourceDefinitions crds;
    private final TlsMaterial tls;
    private final HttpServer http;
    private final String token;
    private volatile KubeClient client;

    private EmbeddedApiServer(ServerOptions options) {
        this.options = options;
        this.token = options.token() != null ? options.token() : randomToken();
        StoreOptions storeOptions = StoreOptions.defaults().withHistorySize(options.historySize())
                .withWatchBufferSize(options.watchBufferSize());
        Journal journal = options.dataDir() == null ? Journal.inMemory() : options.journalFactory().apply(options.dataDir());
        this.store = VersionedStore.open(storeOptions, journal);
        this.registry = new ObjectRegistry(store, new ResourceRegistry(), InstantSource.system(),
                new CustomResourceValidator(options.validator()), options.patcher());
        createDefaultNamespaces();
        this.crds = CustomResourceDefinitions.start(registry, InstantSource.system());
        this.tls = TlsMaterial.generate();
        this.http = new HttpServer(options.bindAddress(), options.port(), tls,
                new ApiHandler(registry, token, options.http(), options.openApi().apply(registry.resources()),
                        InstantSource.system()));
        http.start();
    }

    /** Starts a server with {@link ServerOptions#defaults()}. */
    public static EmbeddedApiServer start() {
        return start(ServerOptions.defaults());
    }

    /** Starts a server with {@code options}. */
    public static EmbeddedApiServer start(ServerOptions options) {
        return new EmbeddedApiServer(options);
    }

    private static String randomToken() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private void createDefaultNamespaces() {
        ResourceDefinition ns = registry.resources().find("", "v1", "namespaces").orElseThrow();
        for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            if (store.get(ns.storageId(), name).isEmpty()) {
                ObjectNode body = KubeJson.mapper().createObjectNode();
                body.putObject("metadata").put("name", name);
                registry.create(ns, "", body, new WriteContext("kube-apiserver", null, false,
                        io.kubeloop.apiserver.registry.FieldValidation.IGNORE, false));
            }
        }
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

    /** The resource layer (for tests and built-in controllers). */
    public ObjectRegistry registry() {
        return registry;
    }

    /** The store (for tests: e.g. {@code store().compact()}). */
    public VersionedStore store() {
        return store;
    }

    /** A kubeconfig (YAML) with CA data, server URL, token and a current context named {@code kubeloop}. */
    public String kubeconfig() {
        String ca = Base64.getEncoder().encodeToString(caPem().getBytes(StandardCharsets.UTF_8));
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kubeloop
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: kubeloop
                  user:
                    token: %s
                contexts:
                - name: kubeloop
                  context:
                    cluster: kubeloop
                    user: kubeloop
                    namespace: default
                current-context: kubeloop
                """.formatted(url(), ca, token);
    }

    /** Writes {@link #kubeconfig()} to {@code file} (owner-readable only where supported). */
    public Path writeKubeconfig(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, kubeconfig());
            try {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    /** A client configuration for this server (CA trust + bearer token, namespace default). */
    public ClientConfig clientConfig() {
        return new ClientConfig(url(), SslContextBuilder.create().trustCertificates(List.of(tls.caCertificate())).build(),
                null, AuthProvider.bearer(token), "default", null, "embedded API server " + url());
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

    @Override
    public void close() {
        KubeClient c = client;
        if (c != null) {
            c.close();
        }
        crds.close();
        store.close();
        http.close();
    }
}
