package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.http.HttpOptions;
import io.kubeloop.apiserver.internal.http.LibraryOpenApiDocuments;
import io.kubeloop.apiserver.internal.http.OpenApiDocuments;
import io.kubeloop.apiserver.internal.registry.BuiltinFieldValidator;
import io.kubeloop.apiserver.internal.registry.CustomResourceSchemas;
import io.kubeloop.apiserver.internal.registry.LibraryPatchApplier;
import io.kubeloop.apiserver.internal.registry.ObjectValidator;
import io.kubeloop.apiserver.internal.registry.PatchApplier;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.apiserver.internal.schema.OpenApiV2;
import io.kubeloop.apiserver.internal.storage.Journal;
import io.kubeloop.apiserver.internal.storage.WalJournal;
import io.kubeloop.apiserver.internal.storage.WalJournalOptions;
import io.kubeloop.time.Ticker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How to start an {@link EmbeddedApiServer}. Use {@link #defaults()} and the {@code with*} methods.
 *
 * <p>Immutable and thread-safe.
 *
 * @param port TCP port, 0 = a free one
 * @param bindAddress address to listen on (default {@code 127.0.0.1})
 * @param token the bearer token clients must send (default: random per run, or kept in the data directory)
 * @param historySize watch history window in events (default 10,000)
 * @param watchBufferSize events buffered per watcher before the watch is ended (default 1,000)
 * @param dataDir directory for durable state, or null for memory only
 * @param journalFactory opens the journal of a data directory (default {@link #walJournal(Path)})
 * @param validator schema validation seam (default: {@link BuiltinFieldValidator}, unknown and duplicate fields
 *        of built-in kinds per {@code fieldValidation}; custom resources accepted unchanged)
 * @param patcher patch seam (default: {@link LibraryPatchApplier}, all four patch types)
 * @param openApi OpenAPI seam: builds the documents over the served resources (default:
 *        {@link LibraryOpenApiDocuments}: v3, v2 as JSON and protobuf, custom resources with their CRD schemas)
 * @param http HTTP tuning
 * @param builtinControllers whether the garbage collector and the Pod grace-period controller run (default
 *        {@link BuiltinControllerMode#RUN})
 * @param ticker the server's clock: object timestamps, watch bookmarks and timeouts, the built-in
 *        controllers' informers and grace periods (default the system ticker)
 * @param listAtZero how a LIST at resourceVersion {@code "0"} without a continue token is answered (default
 *        {@link ListAtZero#WHOLE_FROM_CACHE})
 */
public record ServerOptions(
        int port,
        String bindAddress,
        String token,
        int historySize,
        int watchBufferSize,
        Path dataDir,
        Function<Path, Journal> journalFactory,
        ObjectValidator validator,
        PatchApplier patcher,
        Function<ResourceRegistry, OpenApiDocuments> openApi,
        HttpOptions http,
        BuiltinControllerMode builtinControllers,
        Ticker ticker,
        ListAtZero listAtZero) {

    public ServerOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(journalFactory, "journalFactory");
        Objects.requireNonNull(validator, "validator");
        Objects.requireNonNull(patcher, "patcher");
        Objects.requireNonNull(openApi, "openApi");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(builtinControllers, "builtinControllers");
        Objects.requireNonNull(listAtZero, "listAtZero");
    }

    /**
     * Port 0, 127.0.0.1, random token, in memory, default seams. The first call in a JVM builds the built-in
     * schemas (up to seconds).
     */
    public static ServerOptions defaults() {
        return new ServerOptions(
                0,
                "127.0.0.1",
                null,
                10_000,
                1_000,
                null,
                ServerOptions::walJournal,
                new BuiltinFieldValidator(),
                new LibraryPatchApplier(),
                registry -> new LibraryOpenApiDocuments(
                        registry, CustomResourceSchemas.fromDefinitions(), OpenApiV2::protobuf, Ticker.system()),
                HttpOptions.defaults(),
                BuiltinControllerMode.RUN,
                Ticker.system(),
                ListAtZero.WHOLE_FROM_CACHE);
    }

    /** The default journal factory: the write-ahead log in {@code DATA_DIR/wal} with default tuning. */
    public static Journal walJournal(Path dataDir) {
        return WalJournal.open(new DataDirectory(dataDir).wal(), WalJournalOptions.defaults());
    }

    /** With a fixed port. */
    public ServerOptions withPort(int p) {
        return new ServerOptions(
                p,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With another bind address. */
    public ServerOptions withBindAddress(String a) {
        return new ServerOptions(
                port,
                a,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With a fixed token. */
    public ServerOptions withToken(String t) {
        return new ServerOptions(
                port,
                bindAddress,
                t,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With another history window. */
    public ServerOptions withHistorySize(int n) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                n,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With another per-watcher buffer. */
    public ServerOptions withWatchBufferSize(int n) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                n,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With a data directory (requires a journal factory). */
    public ServerOptions withDataDir(Path dir) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With the WAL seam. */
    public ServerOptions withJournalFactory(Function<Path, Journal> f) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                f,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With the schema seam. */
    public ServerOptions withValidator(ObjectValidator v) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                v,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With the patch seam. */
    public ServerOptions withPatcher(PatchApplier p) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                p,
                openApi,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With the OpenAPI seam. */
    public ServerOptions withOpenApi(Function<ResourceRegistry, OpenApiDocuments> o) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                o,
                http,
                builtinControllers,
                ticker,
                listAtZero);
    }

    /** With a bookmark interval (tests use short ones). */
    public ServerOptions withBookmarkInterval(Duration d) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http.withBookmarkInterval(d),
                builtinControllers,
                ticker,
                listAtZero);
    }

    /**
     * With another LIST chunk size: a LIST body larger than this is streamed in chunks of about this
     * size (default 256 KiB; see {@link HttpOptions#listChunkBytes()}).
     */
    public ServerOptions withListChunkBytes(int bytes) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http.withListChunkBytes(bytes),
                builtinControllers,
                ticker,
                listAtZero);
    }

    /**
     * With the built-in controllers running or off ({@link BuiltinControllerMode#RUN} by default): the
     * garbage collector and the end of node-bound Pods' grace periods.
     */
    public ServerOptions withBuiltinControllers(BuiltinControllerMode mode) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                mode,
                ticker,
                listAtZero);
    }

    /** With another clock (tests pass an {@code io.kubeloop.testing.FakeTicker}). */
    public ServerOptions withTicker(Ticker t) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                t,
                listAtZero);
    }

    /**
     * With another answer to a LIST at resourceVersion {@code "0"} ({@link ListAtZero#WHOLE_FROM_CACHE} by
     * default).
     */
    public ServerOptions withListAtZero(ListAtZero mode) {
        return new ServerOptions(
                port,
                bindAddress,
                token,
                historySize,
                watchBufferSize,
                dataDir,
                journalFactory,
                validator,
                patcher,
                openApi,
                http,
                builtinControllers,
                ticker,
                mode);
    }
}
