package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit log file: whole JSON lines, whatever the writers' interrupts and however late they come. */
class AuditLogTest {

    @TempDir
    Path dir;

    private static AuditLog.Entry entry(String name) {
        UserInfo user = UserInfo.of("u", List.of());
        return new AuditLog.Entry(
                RequestAttributes.resource(user, "get", "", "configmaps", "", "ns", name),
                user,
                "GET",
                "/api/v1/namespaces/ns/configmaps/" + name,
                "127.0.0.1",
                "test",
                200,
                Instant.EPOCH,
                Instant.EPOCH);
    }

    private List<String> names(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .map(line -> KubeJson.mapper()
                        .readTree(line)
                        .path("objectRef")
                        .path("name")
                        .asString())
                .toList();
    }

    @Test
    void aWriterInterruptedWhileRecordingNeitherLosesItsLineNorClosesTheLogForOthers() throws Exception {
        Path file = dir.resolve("audit.log");
        try (AuditLog log = AuditLog.open(file)) {
            Thread interrupted = Thread.ofVirtual().unstarted(() -> {
                Thread.currentThread().interrupt();
                log.record(entry("while-interrupted"));
            });
            interrupted.start();
            interrupted.join();
            log.record(entry("after"));
        }
        assertThat(names(file)).containsExactly("while-interrupted", "after");
    }

    @Test
    void anEntryRecordedAfterCloseIsDroppedSoTheFileEndsWithWholeLines() throws Exception {
        Path file = dir.resolve("audit.log");
        AuditLog log = AuditLog.open(file);
        log.record(entry("before"));
        log.close();
        log.record(entry("late"));
        log.close();
        assertThat(names(file)).containsExactly("before");
        assertThat(Files.readString(file)).endsWith("\n");
    }
}
