package io.kubeloop.controller.webhook;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a {@link WebhookServer} listens and finds its certificate.
 *
 * <p>Immutable and thread-safe.
 *
 * @param address the bind address; port 0 picks a free one
 * @param certDir the directory holding {@code tls.crt} and {@code tls.key}
 */
public record WebhookServerOptions(InetSocketAddress address, Path certDir) {

    public WebhookServerOptions {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(certDir, "certDir");
    }

    /** Port 9443 on all interfaces; certificates in {@code /tmp/k8s-webhook-server/serving-certs}. */
    public static WebhookServerOptions defaults() {
        return new WebhookServerOptions(
                new InetSocketAddress(WebhookServer.DEFAULT_PORT), Path.of("/tmp/k8s-webhook-server/serving-certs"));
    }

    /** These options with another bind address. */
    public WebhookServerOptions withAddress(InetSocketAddress newAddress) {
        return new WebhookServerOptions(newAddress, certDir);
    }

    /** These options with another certificate directory. */
    public WebhookServerOptions withCertDir(Path dir) {
        return new WebhookServerOptions(address, dir);
    }
}
