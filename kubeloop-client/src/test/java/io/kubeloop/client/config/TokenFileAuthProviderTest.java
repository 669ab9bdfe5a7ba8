package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.testing.FakeTicker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileAuthProviderTest {

    private static final FileTime FIXED_MTIME = FileTime.from(Instant.parse("2029-06-01T00:00:00Z"));

    @TempDir
    Path dir;

    private Path file;
    private final FakeTicker clock = new FakeTicker(Instant.parse("2030-01-01T00:00:00Z"));

    @BeforeEach
    void setUp() {
        file = dir.resolve("token");
    }

    /** Rewrites the file in place (same inode) keeping its size and modification time. */
    private void rewriteInvisibly(String sameLengthToken) throws IOException {
        Files.writeString(file, sameLengthToken);
        Files.setLastModifiedTime(file, FIXED_MTIME);
    }

    @Test
    void tokenIsReadAndTrimmed() throws IOException {
        Files.writeString(file, "  abc\n");
        assertThat(AuthProvider.tokenFile(file, clock).authorization()).contains("Bearer abc");
    }

    @Test
    void tokenFileIsReReadWhenItChanges() throws IOException {
        Files.writeString(file, "first");
        AuthProvider provider = AuthProvider.tokenFile(file, clock);
        assertThat(provider.authorization()).contains("Bearer first");
        Files.writeString(file, "second-and-longer");
        assertThat(provider.authorization()).contains("Bearer second-and-longer");
    }

    @Test
    void atomicReplacementIsPickedUpEvenWithSameSizeAndTime() throws IOException {
        Files.writeString(file, "aaaa");
        Files.setLastModifiedTime(file, FIXED_MTIME);
        AuthProvider provider = AuthProvider.tokenFile(file, clock);
        Path next = dir.resolve("token.tmp");
        Files.writeString(next, "bbbb");
        Files.setLastModifiedTime(next, FIXED_MTIME);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        assertThat(provider.authorization()).contains("Bearer bbbb");
    }

    @Test
    void invisibleRewriteIsPickedUpAfterAMinuteAtMost() throws IOException {
        rewriteInvisibly("aaaa");
        AuthProvider provider = AuthProvider.tokenFile(file, clock);
        rewriteInvisibly("bbbb");
        assertThat(provider.authorization()).contains("Bearer aaaa");
        clock.step(TokenFileAuthProvider.MAX_AGE.minusSeconds(1));
        assertThat(provider.authorization()).contains("Bearer aaaa");
        clock.step(Duration.ofSeconds(1));
        assertThat(provider.authorization()).contains("Bearer bbbb");
    }

    @Test
    void invalidateForcesAReRead() throws IOException {
        rewriteInvisibly("aaaa");
        AuthProvider provider = AuthProvider.tokenFile(file, clock);
        rewriteInvisibly("cccc");
        assertThat(provider.authorization()).contains("Bearer aaaa");
        provider.invalidate();
        assertThat(provider.authorization()).contains("Bearer cccc");
    }

    @Test
    void lastGoodTokenIsKeptWhenTheFileBreaks() throws IOException {
        Files.writeString(file, "good");
        AuthProvider provider = AuthProvider.tokenFile(file, clock);
        Files.writeString(file, "");
        assertThat(provider.authorization()).contains("Bearer good");
        Files.delete(file);
        clock.step(Duration.ofMinutes(2));
        assertThat(provider.authorization()).contains("Bearer good");
        Files.writeString(file, "back");
        assertThat(provider.authorization()).contains("Bearer back");
    }

    @Test
    void missingFileFailsAtCreation() {
        assertThatThrownBy(() -> AuthProvider.tokenFile(file, clock))
                .isInstanceOf(CredentialException.class)
                .hasMessage("token file " + file + ": cannot read it or it is empty");
    }
}
