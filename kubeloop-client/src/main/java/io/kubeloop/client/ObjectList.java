package io.kubeloop.client;

import java.util.List;
import java.util.Objects;

/**
 * One page of a list (or all pages of {@link ResourceClient#listAll}): the items and the list
 * metadata. Immutable; thread-safe when the items are.
 *
 * @param items the objects, in the server's order
 * @param resourceVersion the list's resourceVersion: start a watch from here
 * @param continueToken the token for the next page, or null on the last page
 * @param remainingItemCount the server's estimate of items after this page, or null when not sent
 * @param <T> the item type
 */
public record ObjectList<T>(List<T> items, String resourceVersion, String continueToken, Long remainingItemCount) {

    public ObjectList {
        items = List.copyOf(Objects.requireNonNull(items, "items"));
        continueToken = continueToken == null || continueToken.isEmpty() ? null : continueToken;
    }

    /** True when another page follows. */
    public boolean hasMore() {
        return continueToken != null;
    }
}
