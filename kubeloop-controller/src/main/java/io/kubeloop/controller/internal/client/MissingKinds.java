package io.kubeloop.controller.internal.client;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.cache.Reflector;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.cache.WatchErrorHandler;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.discovery.NoMatchException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices when an informer of a manager's cache lists a kind the server does not serve — a CRD not
 * installed yet — and says so as controller-runtime's Kind source does, on the first miss: when a list
 * or watch of a not yet synced informer fails with 404, discovery is asked afresh for the kind, and when
 * it has no match the error is logged as {@code if kind is a CRD, it should be installed before calling
 * Start: no matches for kind "Gateway" in version "gateway.networking.k8s.io/v1" (…)} in place of the
 * informer's usual warning. The informer keeps retrying with its back-off, so a CRD created a moment
 * later (Helm and OLM create it beside the Deployment) is picked up as soon as the server serves it. Other
 * errors, and 404s of a kind discovery does serve, are logged as {@link WatchErrorHandler#logging()} does.
 *
 * <p>{@link #missing} tells a controller waiting for its caches what its unsynced informer misses, so its
 * time-out names the kind.
 *
 * <p><b>Thread safety:</b> thread-safe; each informer's last miss is one volatile reference, written on
 * its reflector's thread.
 */
public final class MissingKinds {

    private static final Logger LOG = LoggerFactory.getLogger("io.kubeloop.controller.Manager");

    /**
     * A kind the server did not serve when an informer last tried to list or watch it.
     *
     * @param kind the kind the informer lists
     * @param error what discovery said, e.g. {@code no matches for kind "Gateway" in version
     *     "gateway.networking.k8s.io/v1"}
     */
    public record Miss(GroupVersionKind kind, NoMatchException error) {

        public Miss {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(error, "error");
        }

        /** The message of a start that gave up on it: the error and controller-runtime's hint. */
        public String describe() {
            return error.getMessage() + "; if kind is a CRD, it should be installed before calling Start";
        }
    }

    /** The handler set on one informer, and its last miss. */
    private final class Handler implements WatchErrorHandler {
        private final SharedIndexInformer<?> informer;
        private final GroupVersionKind kind;
        private volatile Miss last;

        Handler(SharedIndexInformer<?> informer, GroupVersionKind kind) {
            this.informer = informer;
            this.kind = kind;
        }

        @Override
        public void onError(Reflector<?> reflector, Throwable error) {
            if (error instanceof NotFoundException && !informer.hasSynced()) {
                Optional<NoMatchException> notServed = notServed(kind);
                if (notServed.isPresent()) {
                    Miss miss = new Miss(kind, notServed.get());
                    last = miss;
                    LOG.error(
                            "if kind is a CRD, it should be installed before calling Start: {} (kind {}; the"
                                    + " informer {} keeps retrying)",
                            miss.error().getMessage(),
                            kind.groupKind(),
                            reflector.name());
                    return;
                }
            }
            last = null;
            WatchErrorHandler.logging().onError(reflector, error);
        }
    }

    private final KubeClient kube;
    private final Map<SharedIndexInformer<?>, Handler> handlers = new ConcurrentHashMap<>();

    /** @param kube the client whose discovery is asked */
    MissingKinds(KubeClient kube) {
        this.kube = Objects.requireNonNull(kube, "kube");
    }

    /**
     * Watches {@code informer}'s errors for a missing {@code kind}: sets its watch error handler, unless it
     * has started already (then it keeps its own).
     */
    void watch(SharedIndexInformer<?> informer, GroupVersionKind kind) {
        Handler handler = new Handler(informer, kind);
        if (handlers.putIfAbsent(informer, handler) != null) {
            return;
        }
        try {
            informer.setWatchErrorHandler(handler);
        } catch (IllegalStateException started) {
            handlers.remove(informer, handler);
        }
    }

    /**
     * What {@code informer} misses: its kind, when its last list or watch failed because the server does not
     * serve it; empty otherwise (and once it lists again with another outcome).
     */
    public Optional<Miss> missing(SharedIndexInformer<?> informer) {
        Handler handler = handlers.get(informer);
        return handler == null || informer.hasSynced() ? Optional.empty() : Optional.ofNullable(handler.last);
    }

    /** Discovery's answer for {@code kind}, asked afresh: a no-match when it does not serve it. */
    private Optional<NoMatchException> notServed(GroupVersionKind kind) {
        try {
            kube.restMapper().reset();
            kube.restMapper().mapping(kind);
            return Optional.empty();
        } catch (NoMatchException e) {
            return Optional.of(e);
        } catch (RuntimeException discoveryFailed) {
            LOG.debug("discovery of {} failed: {}", kind, discoveryFailed.toString());
            return Optional.empty();
        }
    }
}
