package io.kubeloop.api.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/** A cause chain is read outermost first, each link once, and a chain that loops ends at its last new link. */
class CausesTest {

    private final ConnectException refused = new ConnectException("connection refused");
    private final UncheckedIOException wrapped = new UncheckedIOException(new IOException("io", refused));
    private final IllegalStateException outer = new IllegalStateException("outer", wrapped);

    @Test
    void theChainRunsFromTheOutermostToTheRoot() {
        assertThat(Causes.chain(outer)).containsExactly(outer, wrapped, wrapped.getCause(), refused);
        assertThat(Causes.root(outer)).isSameAs(refused);
        assertThat(Causes.chain(null)).isEmpty();
    }

    @Test
    void findReturnsTheOutermostLinkOfTheType() {
        assertThat(Causes.find(outer, IOException.class)).containsSame(wrapped.getCause());
        assertThat(Causes.has(outer, ConnectException.class)).isTrue();
        assertThat(Causes.has(outer, CancellationException.class)).isFalse();
    }

    @Test
    void aChainThatLoopsEndsInsteadOfSpinning() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);

        assertThat(Causes.chain(a)).containsExactly(a, b);
        assertThat(Causes.root(a)).isSameAs(b);
        assertThat(Causes.has(a, CancellationException.class)).isFalse();
    }
}
