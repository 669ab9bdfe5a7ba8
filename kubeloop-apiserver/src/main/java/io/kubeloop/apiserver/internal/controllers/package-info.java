/**
 * The built-in controllers of the embedded API server, written with kubeloop's own primitives: metadata-only
 * {@link io.kubeloop.cache.SharedIndexInformer}s fed in-process from the server's storage
 * ({@link io.kubeloop.apiserver.internal.controllers.StoreListerWatcher}, no HTTP, no token) and
 * {@link io.kubeloop.workqueue.RateLimitingQueue}s.
 *
 * <ul>
 *   <li>{@link io.kubeloop.apiserver.internal.controllers.GarbageCollector}: kube-controller-manager's garbage collector
 *       (ownerReferences; background, foreground and orphan propagation).</li>
 *   <li>{@link io.kubeloop.apiserver.internal.controllers.PodTerminator}: finishes the graceful deletion of node-bound
 *       Pods when their grace period is over, as a kubelet would (there is none).</li>
 * </ul>
 *
 * <p>{@link io.kubeloop.apiserver.internal.controllers.BuiltinControllers} starts and stops them with the server.
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.controllers;
