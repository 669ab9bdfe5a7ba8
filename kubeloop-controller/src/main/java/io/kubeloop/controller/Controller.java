package io.kubeloop.controller;

import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.workqueue.RateLimitingQueue;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs a {@link Reconciler}: worker threads take {@link Request}s from a rate-limited work queue,
 * reconcile them, and requeue them as the outcome asks (see {@link Reconciler} for the rules).
 * Event sources put requests on {@link #queue()}; the queue collapses repeated requests for one
 * object and never hands one request to two workers at once.
 *
 * <p>Lifecycle: created stopped; {@link #start()} starts
 * {@link ControllerOptions#maxConcurrentReconciles()} workers (virtual threads named
 * {@code <name>-worker-<n>}); {@link #close()} stops them. A controller runs once: it cannot be
 * started twice nor restarted after it stopped.
 *
 * <p><b>Thread safety:</b> all methods are thread-safe.
 *
 * @see <a href="https://github.com/kubernetes-sigs/controller-runtime/blob/main/pkg/internal/controller/controller.go">controller-runtime's controller</a>
 */
public interface Controller extends Component {

    /**
     * Creates a stopped controller.
     *
     * @param reconciler what each request runs
     * @param options how it runs
     * @return the controller; start it with {@link #start()}
     */
    static Controller create(Reconciler reconciler, ControllerOptions options) {
        return new DefaultController(reconciler, options);
    }

    /** The controller's name (see {@link ControllerOptions#name()}). */
    @Override
    String name();

    /**
     * The work queue of this controller's requests. Event handlers {@code add} requests to it;
     * requests added before {@link #start()} wait for the workers. Once the controller stops, adds
     * are ignored.
     *
     * @return the queue
     */
    RateLimitingQueue<Request> queue();

    /**
     * Feeds this controller from {@code informer}: every event the informer delivers (through a
     * handler registration of its own) that {@code filter} accepts goes to {@code handler}, which
     * adds requests to {@link #queue()}. The informer is the caller's: it may be shared with other
     * controllers, and the caller starts and closes it. A watch added before {@link #start()} is
     * one {@code start} waits for; one added to a running controller (as a first
     * {@link ReconcileContext#owned owned} apply of a kind does, and as controller-runtime lets a
     * source be added to a started controller) delivers from then on, its informer's objects first,
     * without being waited for.
     *
     * @param informer the source of events
     * @param handler maps events to requests, e.g. {@link EventHandler#forObject()}
     * @param filter which events reach the handler, e.g. {@link Predicates#generationChanged()}
     * @param <T> the object type
     * @throws IllegalStateException if the controller was closed
     */
    <T> void watch(SharedIndexInformer<T> informer, EventHandler<T> handler, Predicate<? super Event<T>> filter);

    /**
     * {@link #watch(SharedIndexInformer, EventHandler, Predicate)} without a filter.
     *
     * @param informer the source of events
     * @param handler maps events to requests
     * @param <T> the object type
     * @throws IllegalStateException if the controller was closed
     */
    default <T> void watch(SharedIndexInformer<T> informer, EventHandler<T> handler) {
        watch(informer, handler, event -> true);
    }

    /**
     * Waits until the informer of every watch has synced and its registration has delivered the
     * initial list, then starts the workers and returns. Without watches it starts the workers at
     * once.
     *
     * @throws IllegalStateException if the controller was started or closed before
     * @throws CacheSyncTimeoutException if the watches did not sync within
     *     {@link ControllerOptions#cacheSyncTimeout()}; the controller is then stopped
     * @throws CacheAccessDeniedException as soon as the server refused the list or watch of an informer
     *     the controller waits for (401 or 403), naming it; the controller is then stopped
     */
    @Override
    void start();

    /**
     * Stops the controller and waits for it: no reconcile starts after this is called, requests
     * still queued are dropped, and reconciles in progress run to their end before this returns
     * (it does not interrupt them). Idempotent; a controller never started just stops. If the
     * calling thread is interrupted while waiting, the wait goes on and the interrupt flag is set
     * again on return.
     */
    @Override
    void close();

    /**
     * What stopped the controller on its own, if anything: an {@link Error} thrown by the reconciler
     * with {@link ControllerOptions#recoverPanic()} off.
     *
     * @return the failure, or empty
     */
    Optional<Throwable> failure();

    /**
     * The slowest and the most retried of the keys reconciled lately (the last
     * 1,024 distinct ones), for the manager's live view.
     *
     * @return a snapshot
     */
    HotKeys hotKeys();

    /**
     * Calls {@code listener} once with the {@link #failure()} when the controller stops on its own —
     * at once, on the calling thread, if it already has; otherwise later, on the thread that
     * failed (keep it short, do not {@link #close()} on it: hand that to another thread). A
     * {@link Manager} uses it to stop everything, as controller-runtime's process exits on a panic
     * it does not recover.
     *
     * @param listener told of the failure; exceptions it throws are logged and ignored
     */
    @Override
    void onFailure(Consumer<? super Throwable> listener);
}
