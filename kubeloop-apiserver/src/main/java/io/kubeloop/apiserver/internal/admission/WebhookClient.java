package io.kubeloop.apiserver.internal.admission;

import io.kubeloop.api.json.KubeJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
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
import javax.net.ssl.TrustManagerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Posts review objects (AdmissionReview, ConversionReview) to webhooks over HTTPS, trusting the
 * {@code caBundle} of the webhook's {@code clientConfig} (the JVM's trust store when it has none), with
 * the webhook's timeout. One HTTP client per CA bundle, kept for the server's life.
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

    /**
     * Posts {@code review} to the webhook {@code clientConfig} names.
     *
     * @return the answer's JSON
     * @throws CallFailed on a connection, TLS, timeout, HTTP or decoding failure
     */
    public JsonNode post(JsonNode clientConfig, JsonNode review, Duration timeout) throws CallFailed {
        String url = url(clientConfig);
        HttpClient client;
        try {
            client = clients.computeIfAbsent(clientConfig.path("caBundle").asString(""), WebhookClient::client);
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

    /** The URL of a {@code clientConfig}: its {@code url}, or the Service's DNS name, port and path. */
    static String url(JsonNode clientConfig) throws CallFailed {
        String url = clientConfig.path("url").asString("");
        if (!url.isEmpty()) {
            return url;
        }
        JsonNode service = clientConfig.path("service");
        if (!service.isObject()) {
            throw new CallFailed("failed to call webhook: neither url nor service is set in clientConfig");
        }
        return "https://" + service.path("name").asString() + "."
                + service.path("namespace").asString() + ".svc:"
                + service.path("port").asInt(443) + service.path("path").asString("");
    }

    private static HttpClient client(String caBundle) {
        HttpClient.Builder b =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
        if (!caBundle.isEmpty()) {
            b.sslContext(trusting(Base64.getDecoder().decode(caBundle)));
        }
        return b.build();
    }

    private static SSLContext trusting(byte[] pem) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            int i = 0;
            for (var cert :
                    CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
                trust.setCertificateEntry("ca-" + i++, (X509Certificate) cert);
            }
            if (i == 0) {
                throw new IllegalArgumentException("no certificate in it");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(e.getMessage() == null ? "unreadable" : e.getMessage(), e);
        }
    }
}
