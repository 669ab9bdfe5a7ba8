package io.kubeloop.controller.events;

import io.kubeloop.time.Ticker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link EventBroadcaster} or an {@link EventsV1Broadcaster} writes: its clock, how many times it tries a
 * write and how long it waits between tries, and the host name an {@code events.k8s.io/v1} Event reports.
 * Immutable; derive variants with {@link #toBuilder()}.
 *
 * <p>Defaults ({@link #defaults()}): {@link Ticker#system()}, client-go's retries (12 tries, 10 s apart), and
 * this machine's host name.
 *
 * <p><b>Thread safety:</b> immutable; the builder is not thread-safe.
 *
 * @param ticker the clock of Event times, of the spam filter and series, of the pause between tries and of
 *     {@code close()}'s wait
 * @param tries how many times a write is tried, at least 1
 * @param retryDelay the pause between tries, not negative
 * @param host the host name in an {@code events.k8s.io/v1} Event's {@code reportingInstance} (core Events leave
 *     {@code source.host} empty, as client-go's controllers do)
 */
public record EventBroadcasterOptions(Ticker ticker, int tries, Duration retryDelay, String host) {

    /** Validates the options; see the record components for the rules. */
    public EventBroadcasterOptions {
        Objects.requireNonNull(ticker, "ticker");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(host, "host");
        if (tries < 1) {
            throw new IllegalArgumentException("tries must be at least 1, got " + tries);
        }
        if (retryDelay.isNegative()) {
            throw new IllegalArgumentException("retryDelay must not be negative, got " + retryDelay);
        }
    }

    /** The defaults (see the class comment). */
    public static EventBroadcasterOptions defaults() {
        return builder().build();
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options' values. */
    public Builder toBuilder() {
        return new Builder().ticker(ticker).tries(tries).retryDelay(retryDelay).host(host);
    }

    /** Builds {@link EventBroadcasterOptions}; single-threaded use only. */
    public static final class Builder {
        private Ticker ticker = Ticker.system();
        private int tries = 12;
        private Duration retryDelay = Duration.ofSeconds(10);
        private String host;

        private Builder() {}

        /** Sets the clock. */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /** Sets how many times a write is tried. */
        public Builder tries(int tries) {
            this.tries = tries;
            return this;
        }

        /** Sets the pause between tries. */
        public Builder retryDelay(Duration retryDelay) {
            this.retryDelay = retryDelay;
            return this;
        }

        /** Sets the host name Events report; by default this machine's. */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** The options; validated as the record's constructor says. */
        public EventBroadcasterOptions build() {
            return new EventBroadcasterOptions(ticker, tries, retryDelay, host != null ? host : hostName());
        }

        private static String hostName() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                return "localhost";
            }
        }
    }
}
