package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.json.KubeJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import tools.jackson.databind.JsonNode;

/**
 * Posts review objects (AdmissionReview, ConversionReview) to webhooks over HTTPS, trusting the
 * {@code caBundle} of the webhook's {@code clientConfig} (the JVM's trust store when it has none), with
 * the webhook's timeout: at its {@code url}, or, for a {@code service}, at the address of the Service's
 * endpoint ({@link ServiceEndpoints}) with the certificate checked against the Service's DNS name. One
 * HTTP client per CA bundle and Service name, kept for the server's life.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
public final class WebhookClient {

    /** A webhook could not be called or answered nonsense; the message says which and why. */
    public static final class CallFailed extends Exception {
        private static final long serialVersionUID = 1L;

        CallFailed(String message) {
            super(message, null, false, false);
        }
    }

    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();
    private final ServiceEndpoints services;

    /** A client resolving {@code clientConfig.service} through {@code services}. */
    public WebhookClient(ServiceEndpoints services) {
        this.services = services;
    }

    /**
     * Posts {@code review} to the webhook {@code clientConfig} names.
     *
     * @return the answer's JSON
     * @throws CallFailed on a connection, TLS, timeout, HTTP or decoding failure
     */
    public JsonNode post(JsonNode clientConfig, JsonNode review, Duration timeout) throws CallFailed {
        String url = url(clientConfig);
        JsonNode service = clientConfig.path("service");
        String serverName = service.isObject()
                ? service.path("name").asString() + "."
                        + service.path("namespace").asString() + ".svc"
                : "";
        String caBundle = clientConfig.path("caBundle").asString("");
        HttpClient client;
        try {
            client = clients.computeIfAbsent(caBundle + "|" + serverName, k -> client(caBundle, serverName));
        } catch (IllegalArgumentException e) {
            throw new CallFailed("failed to call webhook: invalid caBundle: " + e.getMessage());
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(KubeJson.mapper().writeValueAsBytes(review)))
                .build();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new CallFailed("failed to call webhook: Post \"" + url + "\": context deadline exceeded");
        } catch (IOException e) {
            throw new CallFailed("failed to call webhook: Post \"" + url + "\": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallFailed("failed to call webhook: interrupted");
        }
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw new CallFailed("failed to call webhook: the server responded with the status code "
                    + response.statusCode() + " but did not return a status object");
        }
        try {
            return KubeJson.mapper().readTree(response.body());
        } catch (RuntimeException e) {
            throw new CallFailed("received invalid webhook response: " + e.getMessage());
        }
    }

    /**
     * The URL of a {@code clientConfig}: its {@code url}, or the address of the Service's endpoint with its
     * {@code path}.
     */
    private String url(JsonNode clientConfig) throws CallFailed {
        String url = clientConfig.path("url").asString("");
        if (!url.isEmpty()) {
            return url;
        }
        JsonNode service = clientConfig.path("service");
        if (!service.isObject()) {
            throw new CallFailed("failed to call webhook: neither url nor service is set in clientConfig");
        }
        String namespace = service.path("namespace").asString();
        String name = service.path("name").asString();
        int port = service.path("port").asInt(443);
        InetSocketAddress address = services.resolve(namespace, name, port)
                .orElseThrow(() -> new CallFailed("failed to call webhook: service \"" + name + "/" + namespace
                        + "\" has no endpoint for port " + port));
        String host =
                address.getHostString().contains(":") ? "[" + address.getHostString() + "]" : address.getHostString();
        return "https://" + host + ":" + address.getPort()
                + service.path("path").asString("");
    }

    /**
     * A client trusting {@code caBundle} (or the JVM's trust store); with a {@code serverName} (a Service's
     * DNS name) the certificate must name it, whatever address was dialled.
     */
    private static HttpClient client(String caBundle, String serverName) {
        HttpClient.Builder b =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
        if (!caBundle.isEmpty() || !serverName.isEmpty()) {
            b.sslContext(
                    trusting(caBundle.isEmpty() ? null : Base64.getDecoder().decode(caBundle), serverName));
        }
        return b.build();
    }

    private static SSLContext trusting(byte[] pem, String serverName) {
        try {
            KeyStore trust = null;
            if (pem != null) {
                trust = KeyStore.getInstance("PKCS12");
                trust.load(null, null);
                int i = 0;
                for (var cert :
                        CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
                    trust.setCertificateEntry("ca-" + i++, (X509Certificate) cert);
                }
                if (i == 0) {
                    throw new IllegalArgumentException("no certificate in it");
                }
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            TrustManager[] managers = tmf.getTrustManagers();
            if (!serverName.isEmpty()) {
                managers = new TrustManager[] {new ServiceNameTrustManager((X509TrustManager) managers[0], serverName)};
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, managers, null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(e.getMessage() == null ? "unreadable" : e.getMessage(), e);
        }
    }
}
