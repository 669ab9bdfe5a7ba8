package io.kubeloop.client;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import java.util.Map;
import java.util.Objects;

/**
 * One event of a watch stream: the closed set of the API's event types. Switch over it without a
 * {@code default} so a new variant breaks the build:
 *
 * {@snippet :
 * switch (event) {
 *     case WatchEvent.Added<Pod> a -> cache.put(a.object());
 *     case WatchEvent.Modified<Pod> m -> cache.put(m.object());
 *     case WatchEvent.Deleted<Pod> d -> cache.remove(d.object());
 *     case WatchEvent.Bookmark<Pod> b -> lastResourceVersion = b.resourceVersion();
 *     case WatchEvent.Error<Pod> e -> throw e.exception(); // e.g. GoneException: relist
 * }
 * }
 *
 * <p>Immutable; thread-safe when the object is.
 *
 * @param <T> the watched type
 */
public sealed interface WatchEvent<T> {

    /** The annotation on the BOOKMARK that ends the initial events of a watch-list. */
    String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    /** {@code ADDED}: the object appeared (or matched the selector for the first time). */
    record Added<T>(T object) implements WatchEvent<T> {
        public Added {
            Objects.requireNonNull(object, "object");
        }
    }

    /** {@code MODIFIED}: the object changed. */
    record Modified<T>(T object) implements WatchEvent<T> {
        public Modified {
            Objects.requireNonNull(object, "object");
        }
    }

    /** {@code DELETED}: the object's last state, with the resourceVersion of its deletion. */
    record Deleted<T>(T object) implements WatchEvent<T> {
        public Deleted {
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * {@code BOOKMARK}: nothing changed, but the watch has progressed to {@code resourceVersion}.
     *
     * @param resourceVersion where a new watch may resume
     * @param annotations the bookmark object's annotations, e.g. {@link #INITIAL_EVENTS_END}
     */
    record Bookmark<T>(String resourceVersion, Map<String, String> annotations) implements WatchEvent<T> {
        public Bookmark {
            Objects.requireNonNull(resourceVersion, "resourceVersion");
            annotations = Map.copyOf(annotations);
        }

        /** True for the bookmark that ends the initial ADDED events of a watch-list. */
        public boolean isInitialEventsEnd() {
            return "true".equals(annotations.get(INITIAL_EVENTS_END));
        }
    }

    /**
     * {@code ERROR}: the server ends the watch with a Status, e.g. 410 Expired when the requested
     * resourceVersion is older than its history. The stream ends after it.
     *
     * @param status the server's Status
     */
    record Error<T>(Status status) implements WatchEvent<T> {
        public Error {
            Objects.requireNonNull(status, "status");
        }

        /** The typed exception for the status, e.g. {@code GoneException} for 410. */
        public ApiException exception() {
            return ApiExceptions.from(status);
        }
    }
}
