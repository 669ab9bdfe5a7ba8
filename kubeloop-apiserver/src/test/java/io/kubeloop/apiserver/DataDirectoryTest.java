package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a data directory keeps besides the log: the CA, the server certificate and the token. */
class DataDirectoryTest {

    @TempDir
    Path tmp;

    @Test
    void tlsMaterialIsCreatedOnceAndLoadedAfterwardsOwnerOnly() throws Exception {
        DataDirectory data = new DataDirectory(tmp.resolve("data"));
        TlsMaterial first = data.tls();
        TlsMaterial second = data.tls();
        assertThat(second.caCertificate()).isEqualTo(first.caCertificate());
        X509Certificate s1 = (X509Certificate) first.serverKeyStore().getCertificate("server");
        X509Certificate s2 = (X509Certificate) second.serverKeyStore().getCertificate("server");
        assertThat(s2).isEqualTo(s1);
        s2.verify(second.caCertificate().getPublicKey());
        for (String file : new String[] {"ca.key", "server.key", "ca.crt", "server.crt"}) {
            assertThat(PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(data.pki().resolve(file))))
                    .as(file)
                    .isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.pki())))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.root())))
                .isEqualTo("rwx------");
        try (var files = Files.list(data.pki())) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("ca.crt", "ca.key", "server.crt", "server.key"); // no temporary file left
        }
        assertThat(new DataDirectory(tmp.resolve("other")).tls().caCertificate())
                .isNotEqualTo(first.caCertificate());
    }

    @Test
    void everyFileAndDirectoryAServerCreatesInItsDataDirectoryIsOwnerOnly() throws Exception {
        Path root = tmp.resolve("new/data");
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withDataDir(root))) {
            server.client()
                    .resource("secrets")
                    .inNamespace("default")
                    .create(DynamicObject.parse(
                            "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
                                    + "\"stringData\":{\"password\":\"hunter2\"}}"));
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("new"))))
                .isEqualTo("rwx------");
        try (var all = Files.walk(root)) {
            var paths = all.toList();
            assertThat(paths)
                    .extracting(p -> root.relativize(p).toString().replaceAll("\\d{20}", "N"))
                    .contains("wal", "wal/wal.lock", "wal/N.wal", "pki", "pki/ca.key", "token");
            for (Path p : paths) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                        .as(p.toString())
                        .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
            }
        }
    }

    @Test
    void aMissingServerCertificateIsReissuedByTheSameCa() throws Exception {
        DataDirectory data = new DataDirectory(tmp);
        TlsMaterial first = data.tls();
        Files.delete(data.pki().resolve("server.crt"));
        TlsMaterial second = data.tls();
        assertThat(second.caCertificate()).isEqualTo(first.caCertificate());
        X509Certificate server = (X509Certificate) second.serverKeyStore().getCertificate("server");
        assertThat(server).isNotEqualTo(first.serverKeyStore().getCertificate("server"));
        server.verify(first.caCertificate().getPublicKey());
    }

    @Test
    void aCaWithoutItsKeyIsRejectedWithAClearMessage() throws Exception {
        DataDirectory data = new DataDirectory(tmp);
        data.tls();
        Files.delete(data.pki().resolve("ca.key"));
        assertThatThrownBy(data::tls)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("incomplete CA in " + data.pki());
    }

    @Test
    void theTokenIsGeneratedOncePerDataDirectoryAndStoredOwnerOnly() throws Exception {
        DataDirectory data = new DataDirectory(tmp);
        String token = data.token(null);
        assertThat(token).hasSize(48);
        assertThat(data.token(null)).isEqualTo(token);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.tokenFile())))
                .isEqualTo("rw-------");
        assertThat(new DataDirectory(tmp.resolve("other")).token(null)).isNotEqualTo(token);
    }

    @Test
    void aGivenTokenWinsAndLeavesTheStoredOneAlone() {
        DataDirectory data = new DataDirectory(tmp);
        String stored = data.token(null);
        assertThat(data.token("given")).isEqualTo("given");
        assertThat(data.token(null)).isEqualTo(stored);
    }
}
