package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.apiserver.JournalSeam;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.internal.storage.Journal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What stopping the CLI's server runs — the server's close, then the stop actions, once — and a server that
 * closes itself after a journal failure.
 */
class ServerLifetimeTest {

    @Test
    void stopActionsRunOnceAfterTheServerClosedLastRegisteredFirst() {
        ServerLifetime lifetime = ServerLifetime.start(ServeCommand.baseOptions());
        URI url = lifetime.server().url();
        List<String> ran = new ArrayList<>();
        lifetime.onStop(() -> ran.add("first registered"));
        lifetime.onStop(() -> {
            ran.add("failing");
            throw new IllegalStateException("does not keep the others from running");
        });
        lifetime.onStop(() -> ran.add("last registered, server closed: " + refuses(url)));

        lifetime.stop();
        lifetime.stop();

        assertThat(ran).containsExactly("last registered, server closed: true", "failing", "first registered");
    }

    @Test
    void aStopActionRegisteredAfterTheStopRunsAtOnce() {
        ServerLifetime lifetime = ServerLifetime.start(ServerOptions.defaults());
        lifetime.stop();
        List<String> ran = new ArrayList<>();
        lifetime.onStop(() -> ran.add("late"));
        assertThat(ran).containsExactly("late");
    }

    @Test
    void aServerThatClosesItselfAfterAJournalFailureEndsTheWaitAndSaysWhy(@TempDir Path dir) {
        AtomicBoolean diskFull = new AtomicBoolean();
        Journal failing = mutation -> () -> {
            if (diskFull.get()) {
                throw new UncheckedIOException(new IOException("No space left on device"));
            }
        };
        ServerLifetime lifetime = ServerLifetime.start(
                JournalSeam.withJournal(ServeCommand.baseOptions().withDataDir(dir), failing));
        try {
            diskFull.set(true);
            assertThatThrownBy(() -> lifetime.server()
                            .client()
                            .resource("configmaps")
                            .inNamespace("default")
                            .create(DynamicObject.parse(
                                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"}}")))
                    .isInstanceOf(RuntimeException.class); // a 500, or the connection closing with the server
            assertTimeoutPreemptively(Duration.ofSeconds(30), lifetime::awaitStopSignal);
            assertThat(lifetime.failure())
                    .hasValueSatisfying(f -> assertThat(f).hasStackTraceContaining("No space left on device"));
        } finally {
            lifetime.stop();
        }
    }

    @Test
    void aPlainStopIsNoFailure() {
        ServerLifetime lifetime = ServerLifetime.start(ServeCommand.baseOptions());
        lifetime.stop();
        assertThat(lifetime.failure()).isEmpty();
    }

    private static boolean refuses(URI url) {
        try (Socket s = new Socket(url.getHost(), url.getPort())) {
            return false;
        } catch (IOException refused) {
            return true;
        }
    }
}
