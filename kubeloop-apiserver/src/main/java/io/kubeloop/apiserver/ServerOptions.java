package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.builtin.BuiltinFieldValidator;
import io.kubeloop.apiserver.internal.http.HttpOptions;
import io.kubeloop.apiserver.internal.http.LibraryOpenApiDocuments;
import io.kubeloop.apiserver.internal.http.OpenApiDocuments;
import io.kubeloop.apiserver.internal.openapi.OpenApiV2;
import io.kubeloop.apiserver.internal.registry.CustomResourceSchemas;
import io.kubeloop.apiserver.internal.registry.LibraryPatchApplier;
import io.kubeloop.apiserver.internal.registry.ObjectValidator;
import io.kubeloop.apiserver.internal.registry.PatchApplier;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.storage.Journal;
import io.kubeloop.apiserver.internal.storage.WalJournal;
import io.kubeloop.apiserver.internal.storage.WalJournalOptions;
import io.kubeloop.time.Ticker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How to start an {@link EmbeddedApiServer}: {@link #defaults()}, then the {@code with*} methods, each
 * of which returns a copy with one setting changed.
 *
 * <p>Immutable (every field final) and thread-safe.
 */
public final class ServerOptions {

    private final int port;
    private final String bindAddress;
    private final String token;
    private final int historySize;
    private final int watchBufferSize;
    private final Path dataDir;
    private final BuiltinControllerMode builtinControllers;
    private final Ticker ticker;
    private final ListAtZero listAtZero;
    private final Path tokenAuthFile;
    private final Path auditLog;
    private final boolean anonymousAuth;
    private final SimulatedCluster cluster;
    private final Set<AdmissionPlugin> admissionPlugins;
    // The server's own seams (package-private: tests in this package replace them).
    private final Function<Path, Journal> journalFactory;
    private final ObjectValidator validator;
    private final PatchApplier patcher;
    private final Function<ResourceRegistry, OpenApiDocuments> openApi;
    private final HttpOptions http;

    private ServerOptions(Settings s) {
        if (s.port < 0 || s.port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + s.port);
        }
        if (s.historySize < 1) {
            throw new IllegalArgumentException("historySize must be positive, got " + s.historySize);
        }
        if (s.watchBufferSize < 1) {
            throw new IllegalArgumentException("watchBufferSize must be positive, got " + s.watchBufferSize);
        }
        this.port = s.port;
        this.bindAddress = Objects.requireNonNull(s.bindAddress, "bindAddress");
        this.token = s.token;
        this.historySize = s.historySize;
        this.watchBufferSize = s.watchBufferSize;
        this.dataDir = s.dataDir;
        this.builtinControllers = Objects.requireNonNull(s.builtinControllers, "builtinControllers");
        this.ticker = Objects.requireNonNull(s.ticker, "ticker");
        this.listAtZero = Objects.requireNonNull(s.listAtZero, "listAtZero");
        this.tokenAuthFile = s.tokenAuthFile;
        this.auditLog = s.auditLog;
        this.anonymousAuth = s.anonymousAuth;
        this.cluster = Objects.requireNonNull(s.cluster, "cluster");
        this.admissionPlugins = Collections.unmodifiableSet(EnumSet.copyOf(s.admissionPlugins));
        this.journalFactory = Objects.requireNonNull(s.journalFactory, "journalFactory");
        this.validator = Objects.requireNonNull(s.validator, "validator");
        this.patcher = Objects.requireNonNull(s.patcher, "patcher");
        this.openApi = Objects.requireNonNull(s.openApi, "openApi");
        this.http = Objects.requireNonNull(s.http, "http");
    }

    /** The settings of one copy while it is made; confined to the method making it. */
    private static final class Settings {
        int port;
        String bindAddress;
        String token;
        int historySize;
        int watchBufferSize;
        Path dataDir;
        BuiltinControllerMode builtinControllers;
        Ticker ticker;
        ListAtZero listAtZero;
        Path tokenAuthFile;
        Path auditLog;
        boolean anonymousAuth;
        SimulatedCluster cluster;
        EnumSet<AdmissionPlugin> admissionPlugins;
        Function<Path, Journal> journalFactory;
        ObjectValidator validator;
        PatchApplier patcher;
        Function<ResourceRegistry, OpenApiDocuments> openApi;
        HttpOptions http;
    }

    private Settings settings() {
        Settings s = new Settings();
        s.port = port;
        s.bindAddress = bindAddress;
        s.token = token;
        s.historySize = historySize;
        s.watchBufferSize = watchBufferSize;
        s.dataDir = dataDir;
        s.builtinControllers = builtinControllers;
        s.ticker = ticker;
        s.listAtZero = listAtZero;
        s.tokenAuthFile = tokenAuthFile;
        s.auditLog = auditLog;
        s.anonymousAuth = anonymousAuth;
        s.cluster = cluster;
        s.admissionPlugins =
                admissionPlugins.isEmpty() ? EnumSet.noneOf(AdmissionPlugin.class) : EnumSet.copyOf(admissionPlugins);
        s.journalFactory = journalFactory;
        s.validator = validator;
        s.patcher = patcher;
        s.openApi = openApi;
        s.http = http;
        return s;
    }

    private ServerOptions with(Consumer<Settings> change) {
        Settings s = settings();
        change.accept(s);
        return new ServerOptions(s);
    }

    /**
     * Port 0 (a free one), 127.0.0.1, a random token, in memory, a history of 10,000 events, 1,000
     * events buffered per watcher, built-in controllers running over a {@linkplain SimulatedCluster#defaults()
     * simulated one-node cluster}, the system clock. The first call in a
     * JVM builds the built-in schemas (up to seconds).
     */
    public static ServerOptions defaults() {
        Settings s = new Settings();
        s.port = 0;
        s.bindAddress = "127.0.0.1";
        s.historySize = 10_000;
        s.anonymousAuth = true;
        s.watchBufferSize = 1_000;
        s.builtinControllers = BuiltinControllerMode.RUN;
        s.ticker = Ticker.system();
        s.listAtZero = ListAtZero.WHOLE_FROM_CACHE;
        s.cluster = SimulatedCluster.defaults();
        s.admissionPlugins = EnumSet.noneOf(AdmissionPlugin.class);
        s.journalFactory = ServerOptions::walJournal;
        s.validator = new BuiltinFieldValidator(); // unknown and duplicate fields of built-in kinds
        s.patcher = new LibraryPatchApplier(); // all four patch types
        s.openApi = registry -> new LibraryOpenApiDocuments(
                registry, CustomResourceSchemas.fromDefinitions(), OpenApiV2::protobuf, Ticker.system());
        s.http = HttpOptions.defaults();
        return new ServerOptions(s);
    }

    /** The default journal: the write-ahead log in {@code DATA_DIR/wal} with default tuning. */
    static Journal walJournal(Path dataDir) {
        return WalJournal.open(new DataDirectory(dataDir).wal(), WalJournalOptions.defaults());
    }

    /** With a fixed TCP port (0: a free one). */
    public ServerOptions withPort(int p) {
        return with(s -> s.port = p);
    }

    /** With another address to listen on (default {@code 127.0.0.1}). */
    public ServerOptions withBindAddress(String a) {
        return with(s -> s.bindAddress = a);
    }

    /** With a fixed bearer token for clients (default: random per run, or kept in the data directory). */
    public ServerOptions withToken(String t) {
        return with(s -> s.token = t);
    }

    /** With another watch history window, in events (default 10,000). */
    public ServerOptions withHistorySize(int n) {
        return with(s -> s.historySize = n);
    }

    /** With another number of events buffered per watcher before the watch is ended (default 1,000). */
    public ServerOptions withWatchBufferSize(int n) {
        return with(s -> s.watchBufferSize = n);
    }

    /** With a directory for durable state: objects, token and certificates survive a restart. */
    public ServerOptions withDataDir(Path dir) {
        return with(s -> s.dataDir = dir);
    }

    /** With another interval between watch bookmarks (tests use short ones). */
    public ServerOptions withBookmarkInterval(Duration d) {
        return with(s -> s.http = s.http.withBookmarkInterval(d));
    }

    /**
     * With another LIST chunk size: a LIST body larger than this is streamed in chunks of about this
     * size (default 256 KiB).
     */
    public ServerOptions withListChunkBytes(int bytes) {
        return with(s -> s.http = s.http.withListChunkBytes(bytes));
    }

    /**
     * With the built-in controllers running or off ({@link BuiltinControllerMode#RUN} by default): the
     * garbage collector and the end of node-bound Pods' grace periods.
     */
    public ServerOptions withBuiltinControllers(BuiltinControllerMode mode) {
        return with(s -> s.builtinControllers = mode);
    }

    /**
     * With another clock (tests pass an {@code io.kubeloop.time.testing.FakeTicker}): object timestamps (the
     * {@code managedFields} times of patches and applies too), watch bookmarks and timeouts, the built-in
     * controllers' informers and grace periods.
     */
    public ServerOptions withTicker(Ticker t) {
        return with(s -> {
            s.ticker = t;
            if (s.patcher instanceof LibraryPatchApplier) {
                s.patcher = new LibraryPatchApplier(t);
            }
        });
    }

    /**
     * With another answer to a LIST at resourceVersion {@code "0"} without a continue token
     * ({@link ListAtZero#WHOLE_FROM_CACHE} by default).
     */
    public ServerOptions withListAtZero(ListAtZero mode) {
        return with(s -> s.listAtZero = mode);
    }

    /**
     * With static users: a token file in kube-apiserver's {@code --token-auth-file} format, one
     * {@code token,user,uid,"group1,group2"} line per token. Read at start; a malformed file stops the start
     * with a message naming the line.
     */
    public ServerOptions withTokenAuthFile(Path file) {
        return with(s -> s.tokenAuthFile = Objects.requireNonNull(file, "file"));
    }

    /**
     * With an audit log: every answered request appended to {@code file} as one JSON line (an
     * {@code audit.k8s.io/v1} Event at level Metadata: user, groups, verb, resource, namespace, name,
     * response code, timestamps), as kube-apiserver's {@code --audit-log-path}. Off by default.
     */
    public ServerOptions withAuditLog(Path file) {
        return with(s -> s.auditLog = Objects.requireNonNull(file, "file"));
    }

    /**
     * Whether a request with no credentials runs as the anonymous user {@code system:anonymous} (group
     * {@code system:unauthenticated}), which RBAC then lets read only the public paths ({@code /healthz},
     * {@code /livez}, {@code /readyz}, {@code /version}) and refuses the rest with 403 —
     * the default, as kube-apiserver's {@code --anonymous-auth} — or is refused with 401 Unauthorized
     * whatever its path ({@code false}).
     */
    public ServerOptions withAnonymousAuth(boolean allowed) {
        return with(s -> s.anonymousAuth = allowed);
    }

    /** Whether requests without credentials run as the anonymous user (else they get 401). */
    public boolean anonymousAuth() {
        return anonymousAuth;
    }

    /**
     * With another simulated cluster behind the API ({@link SimulatedCluster#defaults()} by default;
     * {@link SimulatedCluster#off()} for a bare API server whose Pods stay Pending).
     */
    public ServerOptions withCluster(SimulatedCluster c) {
        return with(s -> s.cluster = Objects.requireNonNull(c, "cluster"));
    }

    /**
     * With an admission plugin of kube-apiserver enabled that a default cluster does not run, e.g.
     * {@link AdmissionPlugin#OWNER_REFERENCES_PERMISSION_ENFORCEMENT} to test a controller's RBAC as OpenShift
     * enforces it (kube-apiserver's {@code --enable-admission-plugins}). Each call adds one; none by default.
     * The plugins refuse only requests RBAC decides on: members of {@code system:masters}, such as the
     * server's admin token, are allowed everything, so test with the controller's own ServiceAccount.
     */
    public ServerOptions withAdmissionPlugin(AdmissionPlugin plugin) {
        Objects.requireNonNull(plugin, "plugin");
        return with(s -> s.admissionPlugins.add(plugin));
    }

    /** The admission plugins enabled besides those a default cluster runs. */
    public Set<AdmissionPlugin> admissionPlugins() {
        return admissionPlugins;
    }

    /** The simulated cluster behind the API. */
    public SimulatedCluster cluster() {
        return cluster;
    }

    /** The static token file, or empty for none. */
    public Optional<Path> tokenAuthFile() {
        return Optional.ofNullable(tokenAuthFile);
    }

    /** The audit log file, or empty when requests are not audited. */
    public Optional<Path> auditLog() {
        return Optional.ofNullable(auditLog);
    }

    /** The TCP port, 0 for a free one. */
    public int port() {
        return port;
    }

    /** The address to listen on. */
    public String bindAddress() {
        return bindAddress;
    }

    /** The fixed bearer token, or empty for the default (random, or kept in the data directory). */
    public Optional<String> token() {
        return Optional.ofNullable(token);
    }

    /** The watch history window, in events. */
    public int historySize() {
        return historySize;
    }

    /** Events buffered per watcher before the watch is ended. */
    public int watchBufferSize() {
        return watchBufferSize;
    }

    /** The directory for durable state, or empty for memory only. */
    public Optional<Path> dataDir() {
        return Optional.ofNullable(dataDir);
    }

    /** Whether the built-in controllers run. */
    public BuiltinControllerMode builtinControllers() {
        return builtinControllers;
    }

    /** The server's clock. */
    public Ticker ticker() {
        return ticker;
    }

    /** How a LIST at resourceVersion {@code "0"} without a continue token is answered. */
    public ListAtZero listAtZero() {
        return listAtZero;
    }

    /** With another journal for a data directory (default {@link #walJournal(Path)}). */
    ServerOptions withJournalFactory(Function<Path, Journal> f) {
        return with(s -> s.journalFactory = f);
    }

    Function<Path, Journal> journalFactory() {
        return journalFactory;
    }

    ObjectValidator validator() {
        return validator;
    }

    PatchApplier patcher() {
        return patcher;
    }

    Function<ResourceRegistry, OpenApiDocuments> openApi() {
        return openApi;
    }

    HttpOptions http() {
        return http;
    }

    @Override
    public String toString() {
        return "ServerOptions[port=" + port + ", bindAddress=" + bindAddress + ", token="
                + (token == null ? "(default)" : "(fixed)") + ", historySize=" + historySize + ", watchBufferSize="
                + watchBufferSize + ", dataDir=" + dataDir + ", builtinControllers=" + builtinControllers
                + ", listAtZero=" + listAtZero + ", tokenAuthFile=" + tokenAuthFile + ", auditLog=" + auditLog
                + ", anonymousAuth=" + anonymousAuth
                + ", admissionPlugins=" + admissionPlugins
                + ", cluster=" + cluster
                + ", http=" + http + "]";
    }
}
