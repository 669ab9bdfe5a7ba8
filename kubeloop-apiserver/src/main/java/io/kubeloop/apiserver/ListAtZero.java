package io.kubeloop.apiserver;

/**
 * How an {@link EmbeddedApiServer} answers a LIST at resourceVersion {@code "0"} without a continue token.
 * See {@link ServerOptions#withListAtZero(ListAtZero)}.
 */
public enum ListAtZero {
    /**
     * Whole, ignoring {@code limit}, as kube-apiserver's watch cache answers it (the default).
     */
    WHOLE_FROM_CACHE,
    /**
     * Paged like any other list, as a kube-apiserver started with {@code --watch-cache=false} pages it.
     * Clients that follow client-go's paging rules (kubeloop's reflector) then list page by page.
     */
    PAGED
}
