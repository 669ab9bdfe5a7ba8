package io.kubeloop.apiserver.internal.storage;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * A list request as the store understands it (the resource layer has already validated the API
 * parameters).
 *
 * <p>Immutable if {@code filter} is.
 *
 * @param resource the store's resource id
 * @param namespace only keys in this namespace, or null for all
 * @param filter label/field selector; {@link #filtered} says whether it can reject anything
 * @param filtered true when selectors are set (then {@code remainingItemCount} is not reported)
 * @param revision the snapshot: 0 = latest; otherwise see {@code exact}
 * @param exact true: the state exactly at {@code revision} (410 when compacted); false: any state not
 *        older than {@code revision}
 * @param limit page size, 0 = everything
 * @param continueToken the page to continue, or null
 */
public record ListQuery(
        String resource,
        String namespace,
        Predicate<StoredObject> filter,
        boolean filtered,
        long revision,
        boolean exact,
        int limit,
        ContinueToken continueToken) {

    public ListQuery {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(filter, "filter");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative");
        }
    }

    /** Everything of a resource at the latest revision. */
    public static ListQuery all(String resource, String namespace) {
        return new ListQuery(resource, namespace, o -> true, false, 0, false, 0, null);
    }
}
