package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class CancellationTest {

    @Test
    void firesOnceKeepingTheFirstReason() {
        Cancellation c = Cancellation.create();
        assertThat(c.isCancelled()).isFalse();
        assertThat(c.reason()).isEmpty();
        assertThatCode(c::throwIfCancelled).doesNotThrowAnyException();

        c.cancel("first");
        c.cancel("second");

        assertThat(c.isCancelled()).isTrue();
        assertThat(c.reason()).contains("first");
        assertThatThrownBy(c::throwIfCancelled)
                .isInstanceOf(CancellationException.class)
                .hasMessage("first");
    }

    @Test
    void listenersRunOnceWhenFiredAndAtOnceWhenAddedAfter() {
        Cancellation c = Cancellation.create();
        List<String> ran = new CopyOnWriteArrayList<>();
        c.onCancel(() -> ran.add("before"));
        c.onCancel(() -> {
            throw new IllegalStateException("a failing listener does not stop the others");
        });
        c.onCancel(() -> ran.add("before, after a failing one"));

        c.cancel("stop");
        c.cancel("again");
        c.onCancel(() -> ran.add("after"));

        assertThat(ran).containsExactly("before", "before, after a failing one", "after");
    }
}
