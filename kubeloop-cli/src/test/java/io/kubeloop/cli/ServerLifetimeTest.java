package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.ServerOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What stopping the CLI's server runs: the server's close, then the stop actions, once. */
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

    private static boolean refuses(URI url) {
        try (java.net.Socket s = new java.net.Socket(url.getHost(), url.getPort())) {
            return false;
        } catch (java.io.IOException refused) {
            return true;
        }
    }
}
