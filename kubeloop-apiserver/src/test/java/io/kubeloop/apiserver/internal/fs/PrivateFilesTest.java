package io.kubeloop.apiserver.internal.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Owner-only files and directories, on a file system with POSIX permissions. */
class PrivateFilesTest {

    @TempDir
    Path dir;

    @BeforeEach
    void posixOnly() {
        assumeTrue(PrivateFiles.posix(dir), "no POSIX permissions on this file system");
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void aWrittenFileAndTheDirectoriesCreatedForItAreOwnerOnly() throws Exception {
        Path file = dir.resolve("a/b/secret");
        PrivateFiles.write(file, "token".getBytes(StandardCharsets.UTF_8));
        assertThat(file).hasContent("token");
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(mode(dir.resolve("a"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("a/b"))).isEqualTo("rwx------");
        try (var files = Files.list(dir.resolve("a/b"))) {
            assertThat(files.toList()).containsExactly(file); // no temporary file left
        }
    }

    @Test
    void aFileOthersCouldReadIsReplacedByAnOwnerOnlyOne() throws Exception {
        Path file = Files.writeString(dir.resolve("kubeconfig"), "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        PrivateFiles.write(file, "new".getBytes(StandardCharsets.UTF_8));
        assertThat(file).hasContent("new");
        assertThat(mode(file)).isEqualTo("rw-------");
    }

    @Test
    void anExistingDirectoryKeepsItsPermissions() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        PrivateFiles.write(shared.resolve("file"), new byte[] {1});
        assertThat(mode(shared)).isEqualTo("rwxr-xr-x");
        assertThat(mode(shared.resolve("file"))).isEqualTo("rw-------");
    }

    @Test
    void aSymbolicLinkIsFollowedAndKept() throws Exception {
        Path target = Files.writeString(dir.resolve("real"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        PrivateFiles.write(link, "new".getBytes(StandardCharsets.UTF_8));
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(target).hasContent("new");
        assertThat(mode(target)).isEqualTo("rw-------");
    }

    @Test
    void temporaryDirectoriesAreOwnerOnly() throws Exception {
        Path tmp = PrivateFiles.createTempDirectory("kubeloop-test");
        try {
            assertThat(mode(tmp)).isEqualTo("rwx------");
        } finally {
            Files.delete(tmp);
        }
    }
}
