package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.time.Ticker;
import io.kubeloop.time.testing.FakeTicker;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

class WorkQueueOptionsTest {

    @Test
    void defaultsAreUnnamedSystemTickerNoMetricsAndVirtualThreads() {
        WorkQueueOptions config = WorkQueueOptions.defaults();
        assertThat(config.name()).isEmpty();
        assertThat(config.ticker()).isSameAs(Ticker.system());
        assertThat(config.metrics()).isEqualTo(MetricsProvider.none());
        assertThat(config.threadFactory().newThread(() -> {}).isVirtual()).isTrue();
    }

    @Test
    void toBuilderKeepsEveryValue() {
        FakeTicker ticker = new FakeTicker();
        ThreadFactory factory = Thread.ofPlatform().factory();
        WorkQueueOptions config = WorkQueueOptions.builder()
                .name("a")
                .ticker(ticker)
                .threadFactory(factory)
                .build();

        WorkQueueOptions copy = config.toBuilder().build();

        assertThat(copy).isEqualTo(config);
        assertThat(config.toBuilder().name("b").build().ticker()).isSameAs(ticker);
    }

    @Test
    void blankNameIsRejected() {
        assertThatThrownBy(() -> WorkQueueOptions.builder().name("  ").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("work queue name must not be blank");
    }

    @Test
    void fakeTickerRejectsSteppingBackwards() {
        assertThatThrownBy(() -> new FakeTicker().step(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("FakeTicker cannot step backwards");
    }
}
