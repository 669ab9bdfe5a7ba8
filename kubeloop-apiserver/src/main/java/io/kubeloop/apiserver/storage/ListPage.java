package io.kubeloop.apiserver.storage;

import java.util.List;

/**
 * One page of a list.
 *
 * <p>Immutable.
 *
 * @param items the objects, sorted by key (namespace, then name)
 * @param resourceVersion the snapshot revision (the same on every page of one walk)
 * @param continueToken the token for the next page, or null when this is the last page
 * @param remainingItemCount items after this page when known (no selectors), else null
 */
public record ListPage(List<StoredObject> items, long resourceVersion, String continueToken,
                       Long remainingItemCount) {

    public ListPage {
        items = List.copyOf(items);
    }
}
