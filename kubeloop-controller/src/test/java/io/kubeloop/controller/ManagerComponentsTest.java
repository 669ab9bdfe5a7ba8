package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.KubeClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A manager runs any {@link Component} added to it: the replica's components before the leader's, all closed
 * when it closes; a component that cannot start makes {@code start()} throw and closes the manager; one that
 * fails later stops the manager with its failure. No component here watches anything, so the client never
 * reaches its (absent) API server.
 */
@Timeout(30)
class ManagerComponentsTest {

    private final KubeClient client = UnreachableClient.create();
    private final Manager manager = Manager.create(client);
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        manager.close();
        client.close();
    }

    /** A component that logs its start and close, and can fail to start or fail later. */
    private final class Recorded implements Component {
        private final String name;
        private final boolean leader;
        private final RuntimeException startFailure;
        private final AtomicReference<Consumer<? super Throwable>> failed = new AtomicReference<>();

        Recorded(String name, boolean leader, RuntimeException startFailure) {
            this.name = name;
            this.leader = leader;
            this.startFailure = startFailure;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void start() {
            log.add("start " + name);
            if (startFailure != null) {
                throw startFailure;
            }
        }

        @Override
        public void close() {
            log.add("close " + name);
        }

        @Override
        public boolean needsLeaderElection() {
            return leader;
        }

        @Override
        public void onFailure(Consumer<? super Throwable> listener) {
            failed.set(listener);
        }

        void fail(Throwable e) {
            failed.get().accept(e);
        }
    }

    @Test
    void theReplicasComponentsStartBeforeTheLeadersAndAllCloseWithTheManager() {
        manager.add(new Recorded("leader", true, null));
        manager.add(new Recorded("replica", false, null));

        manager.start();
        assertThat(log).containsExactly("start replica", "start leader");

        manager.close();
        assertThat(log).containsExactly("start replica", "start leader", "close leader", "close replica");
    }

    @Test
    void aComponentThatCannotStartMakesStartThrowAndClosesTheManager() throws Exception {
        IllegalStateException refused = new IllegalStateException("port taken");
        manager.add(new Recorded("first", true, null));
        manager.add(new Recorded("second", true, refused));
        manager.add(new Recorded("third", true, null));

        assertThatThrownBy(manager::start).isSameAs(refused);

        assertThat(manager.failure()).containsSame(refused);
        assertThat(manager.awaitTermination(Duration.ofSeconds(5))).isTrue();
        assertThat(log).doesNotContain("start third").contains("close first", "close second", "close third");
    }

    @Test
    void aComponentThatFailsAfterStartStopsTheManagerWithItsFailure() throws Exception {
        Recorded poller = new Recorded("poller", true, null);
        manager.add(poller);
        manager.start();

        IllegalStateException lost = new IllegalStateException("upstream gone");
        poller.fail(lost);

        assertThat(manager.awaitTermination(Duration.ofSeconds(5))).isTrue();
        assertThat(manager.failure()).containsSame(lost);
        assertThat(log).contains("close poller");
    }

    @Test
    void aComponentIsAddedOnceAndOnlyBeforeTheManagerStarts() {
        Recorded once = new Recorded("once", true, null);
        manager.add(once);
        assertThatThrownBy(() -> manager.add(once))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("once was already added");

        manager.start();
        assertThatThrownBy(() -> manager.add(new Recorded("late", true, null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before the manager starts");
    }
}
