package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;

/**
 * The kubeconfig a client of an embedded API server (or of a proxy in front of one) needs: one
 * cluster with CA data, one user with a bearer token (or a client certificate), one context named {@code kubeloop} with
 * namespace {@code default}. Stateless.
 */
public final class Kubeconfig {

    private Kubeconfig() {}

    /**
     * The kubeconfig as YAML.
     *
     * @param server the server URL
     * @param caPem the CA certificate that signed the server's, PEM
     * @param token the bearer token
     * @return the YAML text
     */
    public static String render(URI server, String caPem, String token) {
        return document(server, caPem, "    token: " + token + "\n");
    }

    /**
     * The kubeconfig as YAML, its user authenticating with a client certificate.
     *
     * @param server the server URL
     * @param caPem the CA certificate that signed the server's, PEM
     * @param clientCertificatePem the client certificate, PEM
     * @param clientKeyPem its private key, PEM
     * @return the YAML text
     */
    public static String render(URI server, String caPem, String clientCertificatePem, String clientKeyPem) {
        return document(
                server,
                caPem,
                "    client-certificate-data: " + base64(clientCertificatePem) + "\n    client-key-data: "
                        + base64(clientKeyPem) + "\n");
    }

    /** The one cluster, user (its credential lines given) and context. */
    private static String document(URI server, String caPem, String credentials) {
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
                %scontexts:
                - name: kubeloop
                  context:
                    cluster: kubeloop
                    user: kubeloop
                    namespace: default
                current-context: kubeloop
                """.formatted(server, base64(caPem), credentials);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes {@code yaml} to {@code file}, owner-only: the file is created {@code 0600} and missing parent
     * directories {@code 0700} where the file system has POSIX permissions ({@link PrivateFiles#write}: a
     * file that was readable by others before is replaced by one that is not).
     *
     * @return the file
     * @throws UncheckedIOException when it cannot be written
     */
    public static Path write(String yaml, Path file) {
        try {
            return PrivateFiles.write(file, yaml.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }
}
