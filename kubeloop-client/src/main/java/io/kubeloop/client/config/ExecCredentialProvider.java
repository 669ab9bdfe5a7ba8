package io.kubeloop.client.config;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.time.Durations;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Credentials from an exec credential plugin ({@code users[].user.exec}), as client-go's
 * {@code plugin/pkg/client/auth/exec}: runs the command with its args, the environment of
 * {@link ConfigEnvironment#variables()} plus the configured {@code env}, and
 * {@code KUBERNETES_EXEC_INFO} holding an {@code ExecCredential} whose {@code spec.interactive} is
 * false (kubeloop never has a terminal) and whose {@code spec.cluster} is set when
 * {@code provideClusterInfo} is; stdin is closed. Its stdout must be an {@code ExecCredential} of
 * the configured apiVersion ({@code client.authentication.k8s.io/v1} or {@code v1beta1}) with
 * {@code status.token} and/or {@code status.clientCertificateData} + {@code clientKeyData} (PEM),
 * optionally {@code status.expirationTimestamp}.
 *
 * <p>Caching: the result is reused until {@link #REFRESH_BEFORE_EXPIRY} before its expiry (forever
 * when none is given); {@link #invalidate()} (after a 401) drops it so the next call re-runs the
 * plugin. The plugin runs at most once at a time; concurrent callers wait for that run. A plugin
 * still running after the timeout (a minute) is killed, with the processes it started. When a run returns a different client certificate, the
 * registered {@link #onClientCertificateChange(Runnable)} action runs (the kubeconfig wiring
 * invalidates cached TLS sessions, so new connections present the new certificate).
 *
 * <p>Errors ({@link CredentialException}, one line): executable missing (with the
 * {@code installHint}), non-zero exit (with its trimmed stderr), invalid JSON, wrong apiVersion or
 * kind, missing status, neither token nor certificate, certificate without key, bad PEM, bad
 * timestamp. A failed run caches nothing.
 *
 * <p>Thread-safe.
 */
final class ExecCredentialProvider implements AuthProvider {

    /** Cached credentials are renewed this long before they expire. */
    static final Duration REFRESH_BEFORE_EXPIRY = Duration.ofSeconds(10);

    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(1);
    static final String EXEC_INFO_ENV = "KUBERNETES_EXEC_INFO";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_STDERR_CHARS = 1000;

    /** What one successful run returned. */
    private record Credential(Optional<String> header, Optional<ClientCredentials> client, Instant expiry) {}

    private final KubeConfig.Exec exec;
    private final Map<String, Object> clusterInfo;
    private final ConfigEnvironment environment;
    private final String name;
    private final Duration timeout;
    private final ReentrantLock lock = new ReentrantLock();
    /** Last good result, or null; written under {@link #lock}. */
    private volatile Credential cached;
    /** The client certificate of the last run that returned one; guarded by {@link #lock}. */
    @GuardedBy("lock")
    private ClientCredentials lastClient;
    /** Called (under {@link #lock}) when a run returns a different client certificate. */
    private volatile Runnable onClientCertificateChange = () -> {};

    /**
     * @param exec the plugin configuration; apiVersion already validated
     * @param clusterInfo the {@code spec.cluster} object, or null when not provided
     * @param environment base environment and clock
     * @param name how to name the plugin in errors, e.g. {@code user "u" in /home/u/.kube/config}
     */
    ExecCredentialProvider(
            KubeConfig.Exec exec,
            Map<String, Object> clusterInfo,
            ConfigEnvironment environment,
            String name,
            Duration timeout) {
        this.exec = exec;
        this.clusterInfo = clusterInfo;
        this.environment = environment;
        this.name = "exec plugin \"" + exec.command() + "\" (" + name + ")";
        this.timeout = timeout;
    }

    @Override
    public Optional<String> authorization() {
        return credential().header;
    }

    /** The client certificate the plugin returned, if any; runs the plugin when needed. */
    Optional<ClientCredentials> clientCredentials() {
        return credential().client;
    }

    /**
     * Registers what to do when the plugin returns a different client certificate than before
     * (e.g. invalidate cached TLS sessions); replaces the previous action.
     */
    void onClientCertificateChange(Runnable action) {
        this.onClientCertificateChange = action;
    }

    private static boolean sameCertificate(ClientCredentials a, ClientCredentials b) {
        return b != null
                && a.certificateChain().equals(b.certificateChain())
                && a.privateKey().equals(b.privateKey());
    }

    @Override
    public void invalidate() {
        lock.lock();
        try {
            cached = null;
        } finally {
            lock.unlock();
        }
    }

    private boolean fresh(Credential credential) {
        return credential != null
                && (credential.expiry == null
                        || environment.clock().instant().isBefore(credential.expiry.minus(REFRESH_BEFORE_EXPIRY)));
    }

    private Credential credential() {
        Credential current = cached;
        if (fresh(current)) {
            return current;
        }
        lock.lock();
        try {
            current = cached;
            if (!fresh(current)) {
                current = run();
                cached = current;
                ClientCredentials client = current.client.orElse(null);
                if (lastClient != null && !sameCertificate(lastClient, client)) {
                    onClientCertificateChange.run();
                }
                lastClient = client;
            }
            return current;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Kills {@code process} and every process it started: a child left behind (a {@code sleep} in a
     * script, say) would keep the plugin's output open, and reading it would wait for that child.
     */
    private static void kill(Process process) {
        List<ProcessHandle> children = process.descendants().toList(); // before the parent dies and they move
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    private Credential run() {
        List<String> command = new ArrayList<>();
        command.add(exec.command());
        command.addAll(exec.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(environment.variables());
        env.putAll(exec.env());
        env.put(EXEC_INFO_ENV, execInfo());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            String hint = exec.installHint() == null ? "" : "; " + oneLine(exec.installHint());
            throw new CredentialException(
                    name + ": executable not found or not runnable (" + oneLine(e.getMessage()) + ")" + hint, e);
        }
        try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
            closeQuietly(process);
            Future<byte[]> stdout = readers.submit(() -> readAll(process.getInputStream()));
            Future<byte[]> stderr = readers.submit(() -> readAll(process.getErrorStream()));
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(process);
                throw new CredentialException(
                        name + ": did not finish within " + Durations.format(timeout) + "; killed");
            }
            byte[] out = stdout.get();
            String err = new String(stderr.get(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                String detail = oneLine(err);
                throw new CredentialException(name + ": failed with exit code " + process.exitValue()
                        + (detail.isEmpty() ? "" : ": " + detail));
            }
            return parse(out);
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new CredentialException(name + ": interrupted", e);
        } catch (ExecutionException e) {
            kill(process);
            throw new CredentialException(name + ": cannot read its output: " + e.getCause(), e.getCause());
        }
    }

    private String execInfo() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("interactive", false);
        if (exec.provideClusterInfo() && clusterInfo != null) {
            spec.put("cluster", clusterInfo);
        }
        Map<String, Object> credential = new LinkedHashMap<>();
        credential.put("apiVersion", exec.apiVersion());
        credential.put("kind", "ExecCredential");
        credential.put("spec", spec);
        return JSON.writeValueAsString(credential);
    }

    private Credential parse(byte[] out) {
        JsonNode root;
        try {
            root = JSON.readTree(out);
        } catch (JacksonException e) {
            throw new CredentialException(name + ": printed invalid JSON: " + oneLine(e.getOriginalMessage()), e);
        }
        if (root == null || !root.isObject()) {
            throw new CredentialException(name + ": printed no ExecCredential JSON object");
        }
        String apiVersion = root.path("apiVersion").asString("");
        if (!apiVersion.equals(exec.apiVersion())) {
            throw new CredentialException(name + ": is configured to use API version " + exec.apiVersion()
                    + ", plugin returned version " + (apiVersion.isEmpty() ? "(none)" : apiVersion));
        }
        String kind = root.path("kind").asString("");
        if (!kind.equals("ExecCredential")) {
            throw new CredentialException(name + ": returned kind \"" + kind + "\", expected ExecCredential");
        }
        JsonNode status = root.get("status");
        if (status == null || !status.isObject()) {
            throw new CredentialException(name + ": didn't return a status field");
        }
        String token = text(status, "token");
        String cert = text(status, "clientCertificateData");
        String key = text(status, "clientKeyData");
        if (token == null && cert == null && key == null) {
            throw new CredentialException(name + ": didn't return a token or cert/key pair");
        }
        if ((cert == null) != (key == null)) {
            throw new CredentialException(name + ": returned only certificate or key, not both");
        }
        Optional<ClientCredentials> client = Optional.empty();
        if (cert != null) {
            try {
                client = Optional.of(ClientCredentials.fromPem(cert, key));
            } catch (IllegalArgumentException e) {
                throw new CredentialException(name + ": returned an unusable " + e.getMessage(), e);
            }
        }
        Instant expiry = null;
        String expiration = text(status, "expirationTimestamp");
        if (expiration != null) {
            try {
                expiry = OffsetDateTime.parse(expiration).toInstant();
            } catch (DateTimeParseException e) {
                throw new CredentialException(
                        name + ": returned an invalid status.expirationTimestamp \"" + expiration + "\"");
            }
        }
        return new Credential(token == null ? Optional.empty() : Optional.of("Bearer " + token), client, expiry);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        String s = value.asString("");
        return s.isEmpty() ? null : s;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static void closeQuietly(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the plugin may already have exited; it gets no stdin either way
        }
    }

    /** Trimmed, lines joined with " / ", capped. */
    static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        String joined = String.join(
                " / ",
                text.strip()
                        .lines()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .toList());
        return joined.length() <= MAX_STDERR_CHARS ? joined : joined.substring(0, MAX_STDERR_CHARS) + "…";
    }

    @Override
    public String toString() {
        return "ExecCredentialProvider[" + name + "]";
    }
}
