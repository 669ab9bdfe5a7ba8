/**
 * controller-runtime for Java: {@link io.kubeloop.controller.Reconciler}s built into controllers by
 * {@link io.kubeloop.controller.ControllerBuilder} and run by a {@link
 * io.kubeloop.controller.Manager}; leader election ({@code io.kubeloop.controller.leader}), events
 * ({@code io.kubeloop.controller.events}), RBAC declaration, manifests and access checks ({@code
 * io.kubeloop.controller.rbac}), health checks ({@code
 * io.kubeloop.controller.endpoints}), admission and conversion webhooks ({@code
 * io.kubeloop.controller.webhook}) and the desired-state, owner-reference and finalizer helpers
 * ({@code io.kubeloop.controller.util}).
 *
 * <p>The Prometheus registry ({@code micrometer.registry.prometheus}) is optional: an application
 * that serves {@code /metrics} requires it (see {@link io.kubeloop.controller.Manager}).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kubeloop.controller {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.cache;
    requires transitive io.kubeloop.workqueue;
    requires transitive micrometer.core;
    requires static micrometer.registry.prometheus;
    requires jdk.httpserver;
    requires org.slf4j;

    exports io.kubeloop.controller;
    exports io.kubeloop.controller.client;
    exports io.kubeloop.controller.endpoints;
    exports io.kubeloop.controller.events;
    exports io.kubeloop.controller.leader;
    exports io.kubeloop.controller.metrics;
    exports io.kubeloop.controller.rbac;
    exports io.kubeloop.controller.util;
    exports io.kubeloop.controller.webhook;
}
