package io.kubeloop.apiserver.internal.storage;

import java.util.ArrayList;
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
public record ListPage(List<StoredObject> items, long resourceVersion, String continueToken, Long remainingItemCount) {

    public ListPage {
        items = List.copyOf(items);
    }

    /**
     * The page of {@code candidates} (one snapshot at revision {@code at}, sorted by key, starting
     * at the query's continue key) that {@code q} asks for: the first {@code limit} that pass its
     * filter, and a continue token at the first candidate left over.
     */
    static ListPage of(ListQuery q, long at, List<StoredObject> candidates) {
        return of(q, at, candidates, 0);
    }

    /**
     * As {@link #of(ListQuery, long, List)}, where the snapshot holds {@code uncounted} more objects after
     * {@code candidates} that were not copied (an unfiltered query whose candidates go past its page):
     * they count into {@code remainingItemCount}.
     */
    static ListPage of(ListQuery q, long at, List<StoredObject> candidates, long uncounted) {
        List<StoredObject> items = new ArrayList<>(q.limit() == 0 ? candidates.size() : Math.min(q.limit(), 1024));
        int i = 0;
        for (; i < candidates.size(); i++) {
            StoredObject o = candidates.get(i);
            if (!q.filter().test(o)) {
                continue;
            }
            if (q.limit() > 0 && items.size() == q.limit()) {
                break;
            }
            items.add(o);
        }
        if (i >= candidates.size()) {
            if (uncounted > 0) {
                throw new IllegalArgumentException(
                        "candidates end before the page is full, but " + uncounted + " more were not copied");
            }
            return new ListPage(items, at, null, null);
        }
        String token = new ContinueToken(at, candidates.get(i).key()).encode();
        Long remaining = q.filtered() ? null : candidates.size() - i + uncounted;
        return new ListPage(items, at, token, remaining);
    }
}
