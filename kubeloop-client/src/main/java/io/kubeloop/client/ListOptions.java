package io.kubeloop.client;

import io.kubeloop.api.selector.FieldSelector;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.time.Durations;
import java.time.Duration;

/**
 * Options of list, watch and deleteCollection, sent as the API's query parameters
 * ({@code labelSelector}, {@code fieldSelector}, {@code limit}, {@code continue},
 * {@code resourceVersion}, {@code resourceVersionMatch}, {@code timeoutSeconds},
 * {@code allowWatchBookmarks}, {@code sendInitialEvents}). Null or zero means "not sent".
 * {@code idleTimeout} is the one client-side option: it is never sent.
 * Build with {@link #builder()}; {@link #none()} sends nothing.
 *
 * <p>Immutable and thread-safe.
 *
 * @param labelSelector e.g. {@code app=web,tier!=db}
 * @param fieldSelector e.g. {@code metadata.name=web}
 * @param limit the page size for list, 0 for no paging
 * @param continueToken the {@code continue} token of the previous page
 * @param resourceVersion see the API's resourceVersion semantics ({@code "0"} = any)
 * @param resourceVersionMatch how a list interprets {@code resourceVersion}
 * @param timeout for watches: the server ends the watch after this (whole seconds, rounded up)
 * @param allowWatchBookmarks for watches: ask for BOOKMARK events
 * @param sendInitialEvents for watch-list: {@code true} to get the current state as ADDED events first
 * @param idleTimeout for watches, client-side (not sent): the client ends the watch with a
 *        {@link WatchTimeoutException} when its consumer waited this long for data and not a byte
 *        arrived; zero for never; null for the client's default, which is
 *        {@link ClientOptions#watchIdleTimeout()} for a watch that asks for bookmarks and never for
 *        others (see {@link Watch})
 */
public record ListOptions(
        String labelSelector,
        String fieldSelector,
        long limit,
        String continueToken,
        String resourceVersion,
        ResourceVersionMatch resourceVersionMatch,
        Duration timeout,
        boolean allowWatchBookmarks,
        Boolean sendInitialEvents,
        Duration idleTimeout) {

    private static final ListOptions NONE = builder().build();

    public ListOptions {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + Durations.format(timeout));
        }
        if (idleTimeout != null && idleTimeout.isNegative()) {
            throw new IllegalArgumentException(
                    "idleTimeout must not be negative, got " + Durations.format(idleTimeout));
        }
    }

    /** No options. */
    public static ListOptions none() {
        return NONE;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .labelSelector(labelSelector)
                .fieldSelector(fieldSelector)
                .limit(limit)
                .continueToken(continueToken)
                .resourceVersion(resourceVersion)
                .resourceVersionMatch(resourceVersionMatch)
                .timeout(timeout)
                .allowWatchBookmarks(allowWatchBookmarks)
                .sendInitialEvents(sendInitialEvents)
                .idleTimeout(idleTimeout);
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private String labelSelector;
        private String fieldSelector;
        private long limit;
        private String continueToken;
        private String resourceVersion;
        private ResourceVersionMatch resourceVersionMatch;
        private Duration timeout;
        private boolean allowWatchBookmarks;
        private Boolean sendInitialEvents;
        private Duration idleTimeout;

        private Builder() {}

        public Builder labelSelector(String labelSelector) {
            this.labelSelector = labelSelector;
            return this;
        }

        /** A typed label selector, sent in its canonical form. */
        public Builder labelSelector(LabelSelector selector) {
            return labelSelector(selector.format());
        }

        /** A typed field selector, sent in its canonical form. */
        public Builder fieldSelector(FieldSelector selector) {
            return fieldSelector(selector.format());
        }

        public Builder fieldSelector(String fieldSelector) {
            this.fieldSelector = fieldSelector;
            return this;
        }

        public Builder limit(long limit) {
            this.limit = limit;
            return this;
        }

        public Builder continueToken(String continueToken) {
            this.continueToken = continueToken;
            return this;
        }

        public Builder resourceVersion(String resourceVersion) {
            this.resourceVersion = resourceVersion;
            return this;
        }

        public Builder resourceVersionMatch(ResourceVersionMatch match) {
            this.resourceVersionMatch = match;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder allowWatchBookmarks(boolean allow) {
            this.allowWatchBookmarks = allow;
            return this;
        }

        public Builder sendInitialEvents(Boolean send) {
            this.sendInitialEvents = send;
            return this;
        }

        /**
         * For watches, client-side: end the watch when nothing arrived for this long while its consumer
         * waited; zero for never; null (the default) for the client's default. Not sent.
         */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        public ListOptions build() {
            return new ListOptions(
                    labelSelector,
                    fieldSelector,
                    limit,
                    continueToken,
                    resourceVersion,
                    resourceVersionMatch,
                    timeout,
                    allowWatchBookmarks,
                    sendInitialEvents,
                    idleTimeout);
        }
    }
}
