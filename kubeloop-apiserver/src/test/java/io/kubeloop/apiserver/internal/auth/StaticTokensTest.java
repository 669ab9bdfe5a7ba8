package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kube-apiserver's token file: token,user,uid,"group1,group2" per line. */
class StaticTokensTest {

    @TempDir
    Path dir;

    @Test
    void readsUsersUidsAndQuotedGroupListsSkippingCommentsAndBlankLines() throws IOException {
        Path f = Files.writeString(dir.resolve("tokens.csv"), "# users\n\nt1,alice,u1,\"devs,qa\"\nt2,bob,u2\n");
        StaticTokens tokens = StaticTokens.read(f);
        assertThat(tokens.authenticate("t1")).contains(new UserInfo("alice", "u1", List.of("devs", "qa"), Map.of()));
        assertThat(tokens.authenticate("t2")).contains(new UserInfo("bob", "u2", List.of(), Map.of()));
        assertThat(tokens.authenticate("t3")).isEmpty();
    }

    @Test
    void aMalformedLineOrARepeatedTokenIsNamedByFileAndLine() throws IOException {
        Path short1 = Files.writeString(dir.resolve("short.csv"), "t1,alice,u1\nt2,bob\n");
        assertThatThrownBy(() -> StaticTokens.read(short1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("short.csv, line 2")
                .hasMessageContaining("token,user,uid");
        Path twice = Files.writeString(dir.resolve("twice.csv"), "t1,alice,u1\nt1,bob,u2\n");
        assertThatThrownBy(() -> StaticTokens.read(twice)).hasMessageContaining("twice.csv, line 2");
    }

    @Test
    void laterEntriesWinOverTheFilesOnAClash() throws IOException {
        StaticTokens tokens = StaticTokens.read(Files.writeString(dir.resolve("t.csv"), "admin,mallory,u\n"))
                .with(Map.of("admin", UserInfo.of("kubernetes-admin", List.of(UserInfo.MASTERS))));
        assertThat(tokens.authenticate("admin").orElseThrow().name()).isEqualTo("kubernetes-admin");
    }
}
