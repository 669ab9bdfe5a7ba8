package io.kubeloop.controller.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.Kind;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The webhook server answers AdmissionReviews and ConversionReviews over HTTPS as controller-runtime's
 * does: a defaulter's changes as a JSON patch, a validator's refusal and warnings, hub-and-spoke
 * conversion; it serves a certificate from PEM files (PKCS#8 or PKCS#1 keys) and picks up new files
 * without a restart.
 */
class WebhookServerTest {

    @Kind(group = "hooks.example.com", version = "v1", kind = "Widget", plural = "widgets")
    record Widget(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {
        record Spec(String color, Integer size) {}
    }

    @Kind(group = "hooks.example.com", version = "v2", kind = "Widget", plural = "widgets")
    record WidgetV2(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {
        record Spec(String colour, Integer size) {}
    }

    private static final Scheme SCHEME =
            Scheme.builder().register(Widget.class).register(WidgetV2.class).build();

    @TempDir
    Path dir;

    private WebhookServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A self-signed certificate for 127.0.0.1 made with the JDK's keytool, written as tls.crt and tls.key. */
    private X509Certificate certificate(String cn, boolean pkcs1) throws Exception {
        Path store = dir.resolve(cn + ".p12");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "tls",
                        "-keyalg",
                        "RSA",
                        "-keysize",
                        "2048",
                        "-dname",
                        "CN=" + cn,
                        "-ext",
                        "SAN=ip:127.0.0.1,dns:localhost",
                        "-validity",
                        "2",
                        "-keystore",
                        store.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        "changeit",
                        "-keypass",
                        "changeit")
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor())
                .as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        X509Certificate cert = (X509Certificate) ks.getCertificate("tls");
        byte[] pkcs8 = ks.getKey("tls", "changeit".toCharArray()).getEncoded();
        String key = pkcs1 ? pem("RSA PRIVATE KEY", innerOctets(pkcs8)) : pem("PRIVATE KEY", pkcs8);
        Files.writeString(dir.resolve("tls.crt"), pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(dir.resolve("tls.key"), key);
        return cert;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    /** The PKCS#1 key inside a PKCS#8 one: the content of its last element, an OCTET STRING. */
    private static byte[] innerOctets(byte[] pkcs8) {
        int i = 1;
        i += lengthBytes(pkcs8, i); // outer SEQUENCE header
        i += 3; // INTEGER 0
        i += 1 + lengthBytes(pkcs8, i + 1) + length(pkcs8, i + 1); // AlgorithmIdentifier
        int len = length(pkcs8, i + 1);
        int start = i + 1 + lengthBytes(pkcs8, i + 1);
        return Arrays.copyOfRange(pkcs8, start, start + len);
    }

    private static int lengthBytes(byte[] der, int at) {
        return (der[at] & 0x80) == 0 ? 1 : 1 + (der[at] & 0x7f);
    }

    private static int length(byte[] der, int at) {
        if ((der[at] & 0x80) == 0) {
            return der[at];
        }
        int n = 0;
        for (int k = 1; k <= (der[at] & 0x7f); k++) {
            n = (n << 8) | (der[at + k] & 0xff);
        }
        return n;
    }

    private HttpResponse<String> post(X509Certificate trusted, String path, String body) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", trusted);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        try (HttpClient client = HttpClient.newBuilder().sslContext(ssl).build()) {
            int port = server.address().orElseThrow().getPort();
            return client.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static String admissionReview(String operation, String object, String oldObject) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u-1\","
                + "\"operation\":\"" + operation + "\",\"object\":" + object + ",\"oldObject\":" + oldObject + "}}";
    }

    private static final String WIDGET =
            "{\"apiVersion\":\"hooks.example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                    + "\"spec\":{\"color\":\"%s\"}}";

    private void serve(TypedWebhooks<Widget> hooks) {
        server = WebhookServer.create(WebhookServerOptions.defaults()
                .withAddress(new InetSocketAddress("127.0.0.1", 0))
                .withCertDir(dir));
        hooks.registerWith(server);
        Conversions.hub(WidgetV2.class, SCHEME)
                .spoke(
                        Widget.class,
                        w -> new WidgetV2(
                                null,
                                null,
                                w.metadata(),
                                new WidgetV2.Spec(w.spec().color(), w.spec().size())),
                        v -> new Widget(
                                null,
                                null,
                                v.metadata(),
                                new Widget.Spec(v.spec().colour(), v.spec().size())))
                .registerWith(server);
        server.start();
    }

    private static TypedWebhooks<Widget> widgetHooks() {
        return TypedWebhooks.forType(Widget.class, SCHEME)
                .withDefaulter(w -> w.spec().size() != null
                        ? w
                        : new Widget(
                                w.apiVersion(),
                                w.kind(),
                                w.metadata(),
                                new Widget.Spec(w.spec().color(), 3)))
                .withValidator(w -> {
                    if (w.spec().color().equals("red")) {
                        throw new AdmissionDeniedException("red widgets are not allowed", 422);
                    }
                    return w.spec().color().equals("pink") ? List.of("pink is unusual") : List.of();
                });
    }

    @Test
    void defaultingAnswersWithThePatchOfWhatTheDefaulterChanged() throws Exception {
        X509Certificate cert = certificate("one", false);
        TypedWebhooks<Widget> hooks = widgetHooks();
        serve(hooks);
        assertThat(hooks.mutatePath()).isEqualTo("/mutate-hooks-example-com-v1-widget");
        HttpResponse<String> r =
                post(cert, hooks.mutatePath(), admissionReview("CREATE", WIDGET.formatted("blue"), "null"));
        JsonNode response = KubeJson.mapper().readTree(r.body()).path("response");
        assertThat(response.path("uid").asString()).isEqualTo("u-1");
        assertThat(response.path("allowed").asBoolean()).isTrue();
        assertThat(response.path("patchType").asString()).isEqualTo("JSONPatch");
        assertThat(new String(Base64.getDecoder().decode(response.path("patch").asString()), StandardCharsets.UTF_8))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/size\",\"value\":3}]");
    }

    @Test
    void validationRefusesWithTheExceptionsCodeAndWarnsOtherwise() throws Exception {
        X509Certificate cert = certificate("one", false);
        TypedWebhooks<Widget> hooks = widgetHooks();
        serve(hooks);
        JsonNode red = KubeJson.mapper()
                .readTree(post(cert, hooks.validatePath(), admissionReview("CREATE", WIDGET.formatted("red"), "null"))
                        .body())
                .path("response");
        assertThat(red.path("allowed").asBoolean()).isFalse();
        assertThat(red.path("status").path("code").asInt()).isEqualTo(422);
        assertThat(red.path("status").path("message").asString()).isEqualTo("red widgets are not allowed");
        JsonNode pink = KubeJson.mapper()
                .readTree(post(
                                cert,
                                hooks.validatePath(),
                                admissionReview("UPDATE", WIDGET.formatted("pink"), WIDGET.formatted("blue")))
                        .body())
                .path("response");
        assertThat(pink.path("allowed").asBoolean()).isTrue();
        assertThat(pink.path("warnings").get(0).asString()).isEqualTo("pink is unusual");
    }

    @Test
    void conversionGoesThroughTheHubAndKeepsMetadata() throws Exception {
        X509Certificate cert = certificate("one", true);
        serve(widgetHooks());
        String review = "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{"
                + "\"uid\":\"c-1\",\"desiredAPIVersion\":\"hooks.example.com/v2\",\"objects\":["
                + WIDGET.formatted("green").replace("\"name\":\"w\"", "\"name\":\"w\",\"uid\":\"abc\"") + "]}}";
        JsonNode response = KubeJson.mapper()
                .readTree(post(cert, Conversions.PATH, review).body())
                .path("response");
        assertThat(response.path("uid").asString()).isEqualTo("c-1");
        assertThat(response.path("result").path("status").asString()).isEqualTo("Success");
        JsonNode converted = response.path("convertedObjects").get(0);
        assertThat(converted.path("apiVersion").asString()).isEqualTo("hooks.example.com/v2");
        assertThat(converted.path("spec").path("colour").asString()).isEqualTo("green");
        assertThat(converted.path("metadata").path("uid").asString()).isEqualTo("abc");
    }

    @Test
    void aRenewedCertificateIsServedWithoutARestart() throws Exception {
        X509Certificate first = certificate("first", false);
        serve(widgetHooks());
        HttpResponse<String> before = post(first, Conversions.PATH, "{}");
        assertThat(((X509Certificate) before.sslSession().orElseThrow().getPeerCertificates()[0])
                        .getSubjectX500Principal()
                        .getName())
                .isEqualTo("CN=first");
        X509Certificate second = certificate("second", false);
        Files.setLastModifiedTime(
                dir.resolve("tls.crt"), FileTime.from(Instant.now().plusSeconds(5)));
        HttpResponse<String> after = post(second, Conversions.PATH, "{}");
        assertThat(((X509Certificate) after.sslSession().orElseThrow().getPeerCertificates()[0])
                        .getSubjectX500Principal()
                        .getName())
                .isEqualTo("CN=second");
        assertThatThrownBy(() -> post(first, Conversions.PATH, "{}"))
                .as("the old certificate is no longer served")
                .isInstanceOf(IOException.class);
        Certificate parsed = CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("tls.crt"))));
        assertThat(parsed).isEqualTo(second);
    }
}
