package io.kubeloop.client.config;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * Turns a selected cluster + user (+ namespace) into a {@link ClientConfig}, with clientcmd's rules:
 *
 * <ul>
 *   <li>{@code server} is required; without a scheme, {@code https://} is assumed.
 *   <li>{@code certificate-authority-data} wins over {@code certificate-authority}; either together
 *       with {@code insecure-skip-tls-verify} is an error.
 *   <li>{@code client-certificate(-data)} needs {@code client-key(-data)} and vice versa; data wins
 *       over files.
 *   <li>{@code token}/{@code tokenFile} and {@code username}/{@code password} exclude each other;
 *       {@code tokenFile} wins over {@code token} (client-go re-reads the file and uses its content).
 *   <li>{@code exec} is used only when the user has no token, basic or certificate credentials
 *       (client-go ignores the plugin then); {@code interactiveMode: Always} is rejected (no terminal).
 *   <li>{@code proxy-url}: http and https; socks5 is rejected (the JDK HttpClient has no SOCKS).
 * </ul>
 *
 * <p>Every error names the file and field. Stateless; thread-safe.
 */
final class ClientConfigFactory {

    static final String EXEC_V1 = "client.authentication.k8s.io/v1";
    static final String EXEC_V1BETA1 = "client.authentication.k8s.io/v1beta1";

    private ClientConfigFactory() {}

    /**
     * @param user the user, or null for no credentials
     * @param source describes the selection for {@link ClientConfig#source()}
     */
    static ClientConfig create(
            KubeConfig.Cluster cluster,
            KubeConfig.User user,
            String namespace,
            String source,
            ConfigEnvironment environment) {
        KubeConfig.Origin at = cluster.origin();
        URI server = server(cluster);
        List<X509Certificate> cas = trustedCertificates(cluster);
        if (cluster.insecureSkipTlsVerify() && !cas.isEmpty()) {
            throw at.error(
                    "insecure-skip-tls-verify",
                    "cannot be combined with certificate-authority or certificate-authority-data");
        }
        URI proxy = proxy(cluster);

        Supplier<Optional<ClientCredentials>> clientCertificate = null;
        AuthProvider auth = AuthProvider.none();
        if (user != null) {
            ClientCredentials fixed = clientCertificate(user);
            if (fixed != null) {
                Optional<ClientCredentials> constant = Optional.of(fixed);
                clientCertificate = () -> constant;
            }
            auth = auth(user, fixed != null, cluster, environment);
            if (auth instanceof ExecCredentialProvider execProvider) {
                clientCertificate = execProvider::clientCredentials;
            }
        }

        SslContextBuilder tls =
                SslContextBuilder.create().trustCertificates(cas).tlsServerName(cluster.tlsServerName());
        if (cluster.insecureSkipTlsVerify()) {
            tls.insecureSkipTlsVerify();
        }
        if (clientCertificate != null) {
            tls.clientCredentials(clientCertificate);
        }
        SSLContext sslContext = tls.build();
        if (auth instanceof ExecCredentialProvider execProvider) {
            execProvider.onClientCertificateChange(() -> SslContextBuilder.invalidateSessions(sslContext));
        }
        return new ClientConfig(server, sslContext, cluster.tlsServerName(), auth, namespace, proxy, source);
    }

    private static URI server(KubeConfig.Cluster cluster) {
        String text = cluster.server();
        if (text == null) {
            throw cluster.origin().error("server", "missing");
        }
        String withScheme = text.contains("://") ? text : "https://" + text;
        try {
            URI uri = new URI(withScheme);
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http")) {
                throw cluster.origin().error("server", "\"" + text + "\" must be an http or https URL");
            }
            if (uri.getHost() == null) {
                throw cluster.origin().error("server", "\"" + text + "\" has no host");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw cluster.origin().error("server", "\"" + text + "\" is not a valid URL: " + e.getReason());
        }
    }

    private static List<X509Certificate> trustedCertificates(KubeConfig.Cluster cluster) {
        if (cluster.certificateAuthorityData() != null) {
            return certificates(cluster.certificateAuthorityData(), cluster.origin(), "certificate-authority-data");
        }
        if (cluster.certificateAuthority() != null) {
            String pem = readFile(cluster.certificateAuthority(), cluster.origin(), "certificate-authority");
            return certificates(pem, cluster.origin(), "certificate-authority");
        }
        return List.of();
    }

    private static List<X509Certificate> certificates(String pem, KubeConfig.Origin at, String field) {
        try {
            return Pem.certificates(pem);
        } catch (IllegalArgumentException e) {
            throw at.error(field, e.getMessage(), e);
        }
    }

    private static String readFile(Path file, KubeConfig.Origin at, String field) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw at.error(field, "cannot read " + file + " (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static URI proxy(KubeConfig.Cluster cluster) {
        String text = cluster.proxyUrl();
        if (text == null) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw cluster.origin().error("proxy-url", "\"" + text + "\" is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "http", "https" -> {
                if (uri.getHost() == null) {
                    throw cluster.origin().error("proxy-url", "\"" + text + "\" has no host");
                }
                yield uri;
            }
            case "socks5" ->
                throw cluster.origin()
                        .error(
                                "proxy-url",
                                "socks5 proxies are not supported (the JDK HttpClient has no SOCKS support); use an http or https proxy");
            default -> throw cluster.origin().error("proxy-url", "\"" + text + "\" must use http, https or socks5");
        };
    }

    private static ClientCredentials clientCertificate(KubeConfig.User user) {
        boolean hasCert = user.clientCertificateData() != null || user.clientCertificate() != null;
        boolean hasKey = user.clientKeyData() != null || user.clientKey() != null;
        if (!hasCert && !hasKey) {
            return null;
        }
        KubeConfig.Origin at = user.origin();
        if (!hasKey) {
            throw at.error(
                    "client-key", "missing (client-key-data or client-key is required with a client certificate)");
        }
        if (!hasCert) {
            throw at.error(
                    "client-certificate",
                    "missing (client-certificate-data or client-certificate is required with a client key)");
        }
        String certField = user.clientCertificateData() != null ? "client-certificate-data" : "client-certificate";
        String certPem = user.clientCertificateData() != null
                ? user.clientCertificateData()
                : readFile(user.clientCertificate(), at, certField);
        String keyField = user.clientKeyData() != null ? "client-key-data" : "client-key";
        String keyPem = user.clientKeyData() != null ? user.clientKeyData() : readFile(user.clientKey(), at, keyField);
        List<X509Certificate> chain = certificates(certPem, at, certField);
        try {
            return new ClientCredentials(chain, Pem.privateKey(keyPem));
        } catch (IllegalArgumentException e) {
            throw at.error(keyField, e.getMessage(), e);
        }
    }

    private static AuthProvider auth(
            KubeConfig.User user, boolean hasCertificate, KubeConfig.Cluster cluster, ConfigEnvironment environment) {
        KubeConfig.Origin at = user.origin();
        boolean token = user.token() != null || user.tokenFile() != null;
        boolean basic = user.username() != null || user.password() != null;
        if (token && basic) {
            throw KubeConfigException.in(
                    at.file(),
                    at.path()
                            + ": more than one authentication method found for user \"" + user.name()
                            + "\"; found token, basicAuth, only one is allowed");
        }
        if (user.hasAuthProvider() && user.exec() != null) {
            throw at.error("auth-provider", "cannot be combined with exec");
        }
        if (user.tokenFile() != null) {
            try {
                return TokenFileAuthProvider.create(user.tokenFile(), environment.clock());
            } catch (CredentialException e) {
                if (user.token() != null) {
                    return AuthProvider.bearer(user.token());
                }
                throw at.error("tokenFile", "cannot read " + user.tokenFile() + " or it is empty", e);
            }
        }
        if (user.token() != null) {
            return AuthProvider.bearer(user.token());
        }
        if (basic) {
            return AuthProvider.basic(user.username(), user.password());
        }
        if (hasCertificate) {
            return AuthProvider.none();
        }
        if (user.exec() != null) {
            return exec(user, cluster, environment);
        }
        if (user.hasAuthProvider()) {
            throw at.error("auth-provider", "auth-provider plugins are not supported; use an exec credential plugin");
        }
        return AuthProvider.none();
    }

    private static ExecCredentialProvider exec(
            KubeConfig.User user, KubeConfig.Cluster cluster, ConfigEnvironment environment) {
        KubeConfig.Exec exec = user.exec();
        KubeConfig.Origin at = user.origin();
        if (exec.command() == null) {
            throw at.error("exec.command", "missing");
        }
        if (exec.apiVersion() == null) {
            throw at.error("exec.apiVersion", "missing");
        }
        if (!exec.apiVersion().equals(EXEC_V1) && !exec.apiVersion().equals(EXEC_V1BETA1)) {
            throw at.error(
                    "exec.apiVersion",
                    "\"" + exec.apiVersion() + "\" is not supported; use " + EXEC_V1 + " or " + EXEC_V1BETA1);
        }
        String mode = exec.interactiveMode();
        if (mode == null) {
            if (exec.apiVersion().equals(EXEC_V1)) {
                throw at.error("exec.interactiveMode", "missing (required for " + EXEC_V1 + ")");
            }
            mode = "IfAvailable";
        }
        switch (mode) {
            case "Never", "IfAvailable" -> {
                // kubeloop has no terminal: the plugin always runs non-interactively
            }
            case "Always" ->
                throw at.error(
                        "exec.interactiveMode",
                        "Always requires a terminal on standard input, which kubeloop never provides");
            default ->
                throw at.error("exec.interactiveMode", "\"" + mode + "\" is invalid; use Never, IfAvailable or Always");
        }
        return new ExecCredentialProvider(
                exec,
                execClusterInfo(cluster),
                environment,
                "user \"" + user.name() + "\" in " + at.file(),
                ExecCredentialProvider.DEFAULT_TIMEOUT);
    }

    /** The {@code spec.cluster} of {@code KUBERNETES_EXEC_INFO} (client.authentication.k8s.io Cluster). */
    private static Map<String, Object> execClusterInfo(KubeConfig.Cluster cluster) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("server", cluster.server());
        if (cluster.tlsServerName() != null) {
            info.put("tls-server-name", cluster.tlsServerName());
        }
        if (cluster.insecureSkipTlsVerify()) {
            info.put("insecure-skip-tls-verify", true);
        }
        String ca = cluster.certificateAuthorityData();
        if (ca == null && cluster.certificateAuthority() != null) {
            ca = readFile(cluster.certificateAuthority(), cluster.origin(), "certificate-authority");
        }
        if (ca != null) {
            info.put(
                    "certificate-authority-data",
                    Base64.getEncoder().encodeToString(ca.getBytes(StandardCharsets.ISO_8859_1)));
        }
        if (cluster.proxyUrl() != null) {
            info.put("proxy-url", cluster.proxyUrl());
        }
        if (cluster.disableCompression()) {
            info.put("disable-compression", true);
        }
        if (cluster.execExtension() != null) {
            info.put("config", cluster.execExtension());
        }
        return info;
    }
}
