package io.kubeloop.cache;

import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link SharedIndexInformer} behaves.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}.
 *
 * @param resyncPeriod the informer's resync check period and the default resync period of its
 *        handlers (client-go's {@code defaultEventHandlerResyncPeriod}); zero for no resync, ever
 * @param queue which informer queue to use; default {@link Queue#REAL_FIFO}
 * @param reflector the reflector's options (its name, ticker, randomness and thread factory serve
 *        the whole informer: the reflector's back-off, the resync ticks, the cache-sync timeouts;
 *        its resync settings are replaced by the informer's)
 */
public record InformerOptions(Duration resyncPeriod, Queue queue, ReflectorOptions reflector) {

    /** The informer queue implementations. */
    public enum Queue {
        /** {@code RealFifo}: global arrival order, atomic relists (client-go's default since 1.33). */
        REAL_FIFO,
        /** {@code DeltaFifo}: per-key delta lists (client-go's classic queue). */
        DELTA_FIFO
    }

    public InformerOptions {
        Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        if (resyncPeriod.isNegative()) {
            throw new IllegalArgumentException(
                    "resyncPeriod must not be negative, got " + Durations.format(resyncPeriod));
        }
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(reflector, "reflector");
    }

    /**
     * The informer's clock: the ticker of its {@link #reflector()} options, which runs the
     * reflector's back-off and watch timing, the resync ticks and {@code waitForCacheSync}.
     *
     * @return the ticker
     */
    public Ticker ticker() {
        return reflector.ticker();
    }

    /** No resync, the in-order queue, default reflector options. */
    public static InformerOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().resyncPeriod(resyncPeriod).queue(queue).reflector(reflector);
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private Duration resyncPeriod = Duration.ZERO;
        private Queue queue = Queue.REAL_FIFO;
        private ReflectorOptions reflector;
        private Ticker ticker;

        private Builder() {}

        public Builder resyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = resyncPeriod;
            return this;
        }

        public Builder queue(Queue queue) {
            this.queue = queue;
            return this;
        }

        public Builder reflector(ReflectorOptions reflector) {
            this.reflector = reflector;
            return this;
        }

        /**
         * Sets the informer's clock (see {@link InformerOptions#ticker()}): it replaces the ticker
         * of the reflector options, whichever of the two is set first.
         *
         * @param ticker the ticker; tests pass an {@code io.kubeloop.time.testing.FakeTicker}
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        public InformerOptions build() {
            ReflectorOptions r = reflector != null ? reflector : ReflectorOptions.defaults();
            if (ticker != null) {
                r = r.toBuilder().ticker(ticker).build();
            }
            return new InformerOptions(resyncPeriod, queue, r);
        }
    }
}
