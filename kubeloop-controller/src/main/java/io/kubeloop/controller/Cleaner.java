package io.kubeloop.controller;

/**
 * Cleans up after an object that is being deleted — external resources, objects in other
 * namespaces, anything the garbage collector cannot reach — behind a finalizer that the controller
 * manages (the Java Operator SDK's {@code Cleaner}). Given to
 * {@link ControllerBuilder#withCleanup(String, Cleaner)}:
 *
 * {@snippet :
 * ControllerBuilder.forResource(Bucket.class)
 *         .withCleanup("example.com/bucket", (bucket, context) -> {
 *             storage.deleteBucket(bucket.spec().name());      // idempotent: may run more than once
 *             return Result.done();                            // done: the finalizer is removed
 *         })
 *         .build(manager, new BucketReconciler(storage));
 * }
 *
 * <p>The controller adds the finalizer to every live object before its reconciler sees it (so no
 * object the reconciler has written for can go without its cleanup), and once the object is being
 * deleted it calls the cleaner instead of the reconciler, until the cleaner succeeds; only then does
 * it remove the finalizer, and the API server deletes the object once no finalizer is left. The
 * finalizer is on the server, so a cleanup that failed, or was never run because the process
 * stopped, runs when the object is next reconciled, by this process or the next.
 *
 * <p>Outcomes, as for a {@link Reconciler}:
 * <ul>
 *   <li>returns {@link Result#done()}: cleaned up; the finalizer is removed;</li>
 *   <li>returns {@link Result#requeueAfter}: cleanup is under way (waiting
 *       for an external deletion, say); the finalizer stays and the object is reconciled again as
 *       the result says;</li>
 *   <li>throws: logged and retried with back-off; the finalizer stays.</li>
 * </ul>
 *
 * <p><b>Thread safety:</b> called from the controller's workers, never twice at once for one object.
 *
 * @param <T> the reconciled type
 */
@FunctionalInterface
public interface Cleaner<T> {

    /**
     * Cleans up after {@code object}, which is being deleted and still carries the finalizer. Must be
     * idempotent: it runs again after a failure, a requeue or a restart.
     *
     * @param object the object, as the cache holds it
     * @param context the reconcile's client, recorder, logger and cancellation
     * @return {@link Result#done()} when cleaned up; a requeue to be called again
     * @throws Exception to be retried with back-off
     */
    Result cleanup(T object, ReconcileContext context) throws Exception;
}
