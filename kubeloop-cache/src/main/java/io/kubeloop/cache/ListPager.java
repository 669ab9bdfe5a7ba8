package io.kubeloop.cache;

import io.kubeloop.api.errors.GoneException;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ListStream;
import io.kubeloop.client.ObjectList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;

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
 * <p><b>Prefetch.</b> Pages are opened with {@link ListerWatcher#openList}, which returns once a page's
 * list metadata has arrived, before its items. With prefetch on, the next page is requested on a
 * thread of its own as soon as the current page's continue token is known, and the current page's
 * items are read meanwhile: at most one page is in flight ahead of the one being read, pages are
 * read one at a time in order on the calling thread, and the requests (and so the result) are the
 * same as without prefetch. The client's rate limiter applies to every request either way. When
 * the list ends early — an error, a 410, the reflector stopping — the page in flight is abandoned:
 * its thread is interrupted (which ends a request that waits for the rate limiter or for the server)
 * and waited for, and a page it opened is closed. An error of the prefetched page surfaces where it
 * would have without prefetch: when that page is due.
 *
 * <p><b>Thread safety.</b> Not thread-safe: used by the reflector's runner thread only; the prefetch
 * threads it starts end before {@link #list} returns or throws.
 *
 * @param <T> the object type
 */
final class ListPager<T> {

    static final long DEFAULT_PAGE_SIZE = 500;

    /** One gathered list: every item and the list's resourceVersion. */
    record Page<T>(List<T> items, String resourceVersion) {}

    private final ListerWatcher<T> listerWatcher;
    private final long configuredPageSize;
    private final boolean prefetch;
    private final ThreadFactory threadFactory;
    private final Runnable checkStopped;
    /** A list at "0" came back paginated (the server has no watch cache): keep paging. */
    private boolean paginatedResult;

    /**
     * @param configuredPageSize the options' page size, or 0 for the rules above
     * @param prefetch request the next page while the current one is read
     * @param threadFactory makes the prefetch threads
     * @param checkStopped called before each further page and after an interrupted wait; throws to abandon the list
     */
    ListPager(
            ListerWatcher<T> listerWatcher,
            long configuredPageSize,
            boolean prefetch,
            ThreadFactory threadFactory,
            Runnable checkStopped) {
        this.listerWatcher = listerWatcher;
        this.configuredPageSize = configuredPageSize;
        this.prefetch = prefetch;
        this.threadFactory = threadFactory;
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
        ListStream<T> current = listerWatcher.openList(
                ListOptions.builder().resourceVersion(rv).limit(pageSize).build());
        if (!current.hasMore()) {
            ObjectList<T> page = current.read();
            return new Page<>(page.items(), page.resourceVersion());
        }
        if (rv.equals("0")) {
            paginatedResult = true;
        }
        String listRv = current.resourceVersion();
        List<T> items = new ArrayList<>();
        Prefetch<T> next = null;
        try {
            while (true) {
                String token = current.continueToken();
                ListOptions following = null;
                if (token != null) {
                    checkStopped.run();
                    following = ListOptions.builder()
                            .limit(pageSize)
                            .continueToken(token)
                            .build();
                    if (prefetch) {
                        next = new Prefetch<>(threadFactory, listerWatcher, following);
                    }
                }
                ListStream<T> reading = current;
                current = null;
                items.addAll(reading.read().items()); // closes it
                if (following == null) {
                    return new Page<>(items, listRv);
                }
                try {
                    if (next != null) {
                        Prefetch<T> opening = next;
                        next = null;
                        current = opening.await(checkStopped);
                    } else {
                        current = listerWatcher.openList(following);
                    }
                } catch (GoneException e) {
                    // expired continue token: one full list at the original resourceVersion
                    ObjectList<T> full = listerWatcher
                            .openList(ListOptions.builder().resourceVersion(rv).build())
                            .read();
                    return new Page<>(full.items(), full.resourceVersion());
                }
            }
        } finally {
            if (current != null) {
                current.close();
            }
            if (next != null) {
                next.cancel();
            }
        }
    }

    /** The next page, opened on a thread of its own while the current one is read. */
    private static final class Prefetch<T> {

        private final CompletableFuture<ListStream<T>> opened = new CompletableFuture<>();
        private final Thread thread;

        Prefetch(ThreadFactory threadFactory, ListerWatcher<T> listerWatcher, ListOptions options) {
            thread = threadFactory.newThread(() -> {
                try {
                    opened.complete(listerWatcher.openList(options));
                } catch (Throwable t) {
                    opened.completeExceptionally(t);
                }
            });
            thread.start();
        }

        /**
         * Waits for the page and its thread; rethrows what opening it threw. When interrupted, abandons the page
         * and calls {@code checkStopped}; if that does not throw, throws {@link CancellationException} with the
         * interrupt flag set.
         */
        ListStream<T> await(Runnable checkStopped) {
            ListStream<T> stream;
            try {
                stream = opened.get();
            } catch (InterruptedException e) {
                cancel();
                Thread.currentThread().interrupt();
                checkStopped.run();
                throw new CancellationException("interrupted while waiting for the next page of a list");
            } catch (ExecutionException e) {
                joinUninterruptibly(thread);
                throw rethrow(e.getCause());
            }
            joinUninterruptibly(thread);
            return stream;
        }

        /** Interrupts the request, waits for its thread and closes the page if it was opened. */
        void cancel() {
            thread.interrupt();
            joinUninterruptibly(thread);
            if (opened.isDone() && !opened.isCompletedExceptionally()) {
                opened.join().close();
            }
        }

        private static RuntimeException rethrow(Throwable t) {
            if (t instanceof RuntimeException r) {
                return r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            return new IllegalStateException("opening the next page of a list failed", t);
        }

        private static void joinUninterruptibly(Thread thread) {
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
