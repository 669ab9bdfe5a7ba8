package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in controllers start with the server (unless turned off) and leave no thread behind when it closes. */
class BuiltinControllersLifecycleTest {

    private static final List<String> CONTROLLER_THREADS = List.of(
            "gc-graph-builder",
            "gc-attempt-to-delete",
            "gc-attempt-to-orphan",
            "pod-terminator",
            "kubeloop-builtin-controllers");

    /** Every thread's name, virtual threads included (a JSON thread dump). */
    private static String threadDump(Path dir, String name) throws IOException {
        Path file = dir.resolve(name + ".json");
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        return Files.readString(file);
    }

    @Test
    void closeEndsEveryControllerThread(@TempDir Path dir) throws IOException {
        EmbeddedApiServer server = EmbeddedApiServer.start();
        String running;
        try {
            running = threadDump(dir, "running");
        } finally {
            server.close();
        }
        for (String name : CONTROLLER_THREADS) {
            assertThat(running).as("thread %s while running", name).contains("\"" + name);
        }
        String closed = threadDump(dir, "closed");
        for (String name : CONTROLLER_THREADS) {
            assertThat(closed).as("thread %s after close", name).doesNotContain("\"" + name);
        }
    }

    @Test
    void withoutBuiltinControllersNoControllerThreadRuns(@TempDir Path dir) throws IOException {
        String running;
        try (EmbeddedApiServer ignored =
                EmbeddedApiServer.start(ServerOptions.defaults().withBuiltinControllers(BuiltinControllerMode.OFF))) {
            running = threadDump(dir, "without");
        }
        for (String name : CONTROLLER_THREADS) {
            assertThat(running)
                    .as("thread %s without built-in controllers", name)
                    .doesNotContain("\"" + name);
        }
    }
}
