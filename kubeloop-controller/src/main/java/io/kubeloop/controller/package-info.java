/**
 * The controller layer, after controller-runtime: a {@link io.kubeloop.controller.Reconciler} is
 * asked to reconcile {@link io.kubeloop.controller.Request}s (object keys, level-based), answers
 * with a {@link io.kubeloop.controller.Result} or throws, and a
 * {@link io.kubeloop.controller.Controller} runs it on worker threads fed by a rate-limited work
 * queue from {@code io.kubeloop.workqueue}.
 *
 * <p>Here: the reconcile contract and its {@link io.kubeloop.controller.ReconcileContext} (the
 * manager's cache-backed client from {@code io.kubeloop.controller.client}, an Event recorder, the
 * {@link io.kubeloop.controller.Cancellation} that fires when the controller stops, the owned objects
 * of an owner kept at their desired state); a {@link io.kubeloop.controller.Cleaner} run behind a
 * finalizer the controller manages; the controller's
 * worker loop with
 * controller-runtime's requeue rules, terminal errors, recovered panics, bounded concurrency and
 * metrics; and watches, which bridge a shared informer's notifications into
 * {@link io.kubeloop.controller.Event}s, filter them with predicates
 * ({@link io.kubeloop.controller.Predicates}) and map them to requests with an
 * {@link io.kubeloop.controller.EventHandler}; and {@link io.kubeloop.controller.ControllerBuilder},
 * which builds a controller and its watches from types. Leader election on Leases is in
 * {@code io.kubeloop.controller.leader}, Events in {@code io.kubeloop.controller.events};
 * {@link io.kubeloop.controller.Manager} runs {@linkplain io.kubeloop.controller.Component components}
 * (controllers, webhook servers, an application's own) over its cache behind leader election, with a
 * bounded graceful shutdown; it is a {@link io.kubeloop.controller.Cluster} (informers, client, Event
 * recorders), and its metrics and health servers are its {@link io.kubeloop.controller.ManagerEndpoints}.
 *
 * <p>Threads: each controller owns one work queue (with its waiting-loop thread) and
 * {@code maxConcurrentReconciles} virtual worker threads; the reconciler runs on the workers and no
 * lock is held while it runs. Event handlers and predicates run on the informer's thread for the
 * controller's registration.
 */
package io.kubeloop.controller;
