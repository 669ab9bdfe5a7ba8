package io.kubeloop.cache;

import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ListStream;
import io.kubeloop.client.ObjectList;
import io.kubeloop.client.ResourceClient;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The source a {@link Reflector} lists and watches (client-go's {@code ListerWatcher}). Over a
 * server: {@link #of(ResourceClient)}; in unit tests: {@link io.kubeloop.cache.testing.FakeListerWatcher}.
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the object type
 */
public interface ListerWatcher<T> {

    /**
     * One page of the collection (all of it without a limit).
     *
     * @throws io.kubeloop.api.errors.ApiException for error replies (e.g. GoneException for an expired continue token)
     */
    ObjectList<T> list(ListOptions options);

    /**
     * One page as {@link #list(ListOptions)}, returned once its list metadata (resourceVersion, continue token)
     * is known, its items read by {@link ListStream#read()} ({@link ResourceClient#openList}): the reflector's
     * pager asks for the next page while this one is read. The default lists with {@link #list(ListOptions)}.
     *
     * @throws io.kubeloop.api.errors.ApiException for error replies (e.g. GoneException for an expired continue token)
     */
    default ListStream<T> openList(ListOptions options) {
        return ListStream.of(list(options));
    }

    /**
     * Opens a watch.
     *
     * @throws io.kubeloop.api.errors.ApiException when the server refuses the request
     */
    WatchStream<T> watch(ListOptions options);

    /** Lists and watches through {@code client} (its namespace or all namespaces, as it is scoped). */
    static <T> ListerWatcher<T> of(ResourceClient<T> client) {
        return of(client, UnaryOperator.identity());
    }

    /**
     * Lists and watches through {@code client}, passing every request's options through
     * {@code tweak} first (client-go's {@code tweakListOptions}), e.g. to add selectors.
     */
    static <T> ListerWatcher<T> of(ResourceClient<T> client, UnaryOperator<ListOptions> tweak) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(tweak, "tweak");
        return new ListerWatcher<>() {
            @Override
            public ObjectList<T> list(ListOptions options) {
                return client.list(tweak.apply(options));
            }

            @Override
            public ListStream<T> openList(ListOptions options) {
                return client.openList(tweak.apply(options));
            }

            @Override
            public WatchStream<T> watch(ListOptions options) {
                return WatchStream.of(client.watch(tweak.apply(options)));
            }

            @Override
            public String toString() {
                return client.resource().toString();
            }
        };
    }

    /**
     * A tweak that sets the label and field selectors (null or empty: not sent) on every request.
     */
    static UnaryOperator<ListOptions> selectors(String labelSelector, String fieldSelector) {
        String ls = labelSelector == null || labelSelector.isEmpty() ? null : labelSelector;
        String fs = fieldSelector == null || fieldSelector.isEmpty() ? null : fieldSelector;
        return o -> ls == null && fs == null
                ? o
                : o.toBuilder().labelSelector(ls).fieldSelector(fs).build();
    }
}
