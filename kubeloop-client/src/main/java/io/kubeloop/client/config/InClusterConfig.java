package io.kubeloop.client.config;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configuration for a pod talking to its own cluster, as client-go's {@code rest.InClusterConfig}:
 *
 * <ul>
 *   <li>server {@code https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT} (an IPv6 host is
 *       bracketed); both variables must be set;
 *   <li>bearer token from {@code <serviceAccountDir>/token}, re-read whenever it changes (projected
 *       tokens rotate) — see {@link TokenFileAuthProvider}; it must be readable now;
 *   <li>trust: the CA in {@code <serviceAccountDir>/ca.crt}; if it is missing or invalid, a warning
 *       is logged and the JDK's default trust store is used (client-go does the same);
 *   <li>namespace: {@code $POD_NAMESPACE}, else {@code <serviceAccountDir>/namespace}, else
 *       {@code default}.
 * </ul>
 *
 * <p>{@code serviceAccountDir} and the variables come from a {@link ConfigEnvironment}, so tests
 * can point them at a temporary directory. Stateless; thread-safe.
 */
public final class InClusterConfig {

    private static final Logger LOG = LoggerFactory.getLogger(InClusterConfig.class);

    private InClusterConfig() {}

    /** Whether {@code KUBERNETES_SERVICE_HOST} and {@code KUBERNETES_SERVICE_PORT} are both set. */
    public static boolean isAvailable(ConfigEnvironment environment) {
        return environment.variable("KUBERNETES_SERVICE_HOST") != null
                && environment.variable("KUBERNETES_SERVICE_PORT") != null;
    }

    /**
     * Loads the in-cluster configuration.
     *
     * @throws KubeConfigException when not in a cluster (variables unset), the server address is
     *         invalid, or the token cannot be read
     */
    public static ClientConfig load(ConfigEnvironment environment) {
        String host = environment.variable("KUBERNETES_SERVICE_HOST");
        String port = environment.variable("KUBERNETES_SERVICE_PORT");
        if (host == null || port == null) {
            throw new KubeConfigException(
                    "in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined");
        }
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        URI server;
        try {
            server = URI.create("https://" + host + ":" + Integer.parseInt(port.strip()));
        } catch (IllegalArgumentException e) {
            throw new KubeConfigException("in-cluster configuration: invalid server address " + host + ":" + port);
        }
        Path dir = environment.serviceAccountDir();
        Path tokenFile = dir.resolve("token");
        AuthProvider auth;
        try {
            auth = TokenFileAuthProvider.create(tokenFile, environment.clock());
        } catch (CredentialException e) {
            throw new KubeConfigException(
                    "in-cluster configuration: cannot read the service account token " + tokenFile + " or it is empty",
                    e);
        }
        return new ClientConfig(
                server,
                sslContext(dir.resolve("ca.crt")),
                null,
                auth,
                namespace(environment),
                null,
                "in-cluster service account (" + dir + ")");
    }

    private static SSLContext sslContext(Path caFile) {
        SslContextBuilder tls = SslContextBuilder.create();
        try {
            tls.trustPem(Files.readString(caFile, StandardCharsets.ISO_8859_1));
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn(
                    "Expected to load the root CA from {}, but got {}; using the JDK's default trust store",
                    caFile,
                    e instanceof NoSuchFileException ? "no such file" : e.getMessage());
        }
        return tls.build();
    }

    private static String namespace(ConfigEnvironment environment) {
        String fromEnv = environment.variable("POD_NAMESPACE");
        if (fromEnv != null) {
            return fromEnv;
        }
        try {
            String ns = Files.readString(environment.serviceAccountDir().resolve("namespace"), StandardCharsets.UTF_8)
                    .strip();
            if (!ns.isEmpty()) {
                return ns;
            }
        } catch (IOException e) {
            // fall through to the default, as client-go does
        }
        return "default";
    }
}
