package io.kubeloop.apiserver;

/**
 * Whether an {@link EmbeddedApiServer} runs its built-in controllers: the garbage collector (ownerReferences,
 * foreground and orphan deletion) and the end of node-bound Pods' grace periods (there is no kubelet).
 * See {@link ServerOptions#withBuiltinControllers(BuiltinControllerMode)}.
 */
public enum BuiltinControllerMode {
    /** The controllers run in-process (the default). */
    RUN,
    /**
     * No controllers: the server behaves like a bare kube-apiserver (as envtest's): policy finalizers stay
     * until someone removes them, and objects whose owners are absent are kept.
     */
    OFF
}
