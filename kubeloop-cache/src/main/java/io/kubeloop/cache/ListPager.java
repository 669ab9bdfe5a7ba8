package io.kubeloop.cache;

import io.kubeloop.api.errors.GoneException;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ObjectList;
import java.util.ArrayList;
import java.util.List;

/**
 * The paginated LIST of a {@link Reflector} (client-go's {@code tools/pager} as the reflector uses
 * it): asks for pages of {@link #DEFAULT_PAGE_SIZE} (or the configured size) and follows continue
 * tokens to the end, gathering one list at the first page's resourceVersion.
 *
 * <p>Page size rules, as client-go's reflector: a configured size always wins; otherwise a
 * resourceVersion other than {@code ""} and {@code "0"} is listed unpaginated (the server's watch
 * cache serves it whole), unless an earlier {@code "0"} list came back paginated (then the server
 * has no watch cache and pages from then on). An expired continue token (410 on a later page) gives
 * one unpaginated list at the original resourceVersion.
 *
 * <p><b>Thread safety.</b> Not thread-safe: used by the reflector's runner thread only.
 *
 * @param <T> the object type
 */
final class ListPager<T> {

    static final long DEFAULT_PAGE_SIZE = 500;

    /** One gathered list: every item and the list's resourceVersion. */
    record Page<T>(List<T> items, String resourceVersion) {
    }

    private final ListerWatcher<T> listerWatcher;
    private final long configuredPageSize;
    private final Runnable checkStopped;
    /** A list at "0" came back paginated (the server has no watch cache): keep paging. */
    private boolean paginatedResult;

    /**
     * @param configuredPageSize the options' page size, or 0 for the rules above
     * @param checkStopped called before each further page; throws to abandon the list
     */
    ListPager(ListerWatcher<T> listerWatcher, long configuredPageSize, Runnable checkStopped) {
        this.listerWatcher = listerWatcher;
        this.configuredPageSize = configuredPageSize;
        this.checkStopped = checkStopped;
    }

    /** Lists everything at {@code rv} ({@code ""}, {@code "0"} or a resourceVersion). */
    Page<T> list(String rv) {
        long pageSize;
        if (configuredPageSize > 0) {
            pageSize = configuredPageSize;
        } else if (paginatedResult) {
            pageSize = DEFAULT_PAGE_SIZE;
        } else if (!rv.isEmpty() && !rv.equals("0")) {
            pageSize = 0; // let the watch cache serve it
        } else {
            pageSize = DEFAULT_PAGE_SIZE;
        }
        ObjectList<T> page = listerWatcher.list(ListOptions.builder().resourceVersion(rv).limit(pageSize).build());
        if (!page.hasMore()) {
            return new Page<>(page.items(), page.resourceVersion());
        }
        if (rv.equals("0")) {
            paginatedResult = true;
        }
        List<T> items = new ArrayList<>(page.items());
        String token = page.continueToken();
        while (token != null) {
            checkStopped.run();
            ObjectList<T> next;
            try {
                next = listerWatcher.list(ListOptions.builder().limit(pageSize).continueToken(token).build());
            } catch (GoneException e) {
                // expired continue token: one full list at the original resourceVersion
                ObjectList<T> full = listerWatcher.list(ListOptions.builder().resourceVersion(rv).build());
                return new Page<>(full.items(), full.resourceVersion());
            }
            items.addAll(next.items());
            token = next.continueToken();
        }
        return new Page<>(items, page.resourceVersion());
    }
}
