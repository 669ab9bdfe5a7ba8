package io.kubeloop.controller.rbac;

import io.kubeloop.client.http.Interceptor;
import io.kubeloop.controller.internal.rbac.RequestAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Notes the RBAC attributes of every request a client sends ({@link ApiAccess}: verb, group,
 * resource, subresource, namespace, name, or a non-resource path), derived from the method and URL as
 * the API server derives them. Give it to a manager with
 * {@code ManagerOptions.withAccessRecorder(recorder)}, run the controllers (in a test, say), then
 * compare what they used with what they declare:
 *
 * {@snippet :
 * AccessRecorder recorder = AccessRecorder.create();
 * try (Manager manager = Manager.create(client, ManagerOptions.defaults().withAccessRecorder(recorder))) {
 *     ControllerBuilder.forResource(Foo.class).owns(Deployment.class).build(manager, new FooReconciler());
 *     manager.start();
 *     // ... create a Foo, wait until it is reconciled ...
 * }
 * AccessReport report = AccessReport.of(manager.permissions(), recorder.accesses());
 * assertThat(report.missing()).as(report.toString()).isEmpty();
 * }
 *
 * <p>A request is noted when it is sent, whatever the answer, so a request the server refused
 * (403) is noted too. Each distinct access is kept once. Any client can record through
 * {@link #interceptor()} — in {@code ClientOptions.interceptors} or with
 * {@code KubeClient.withInterceptor}.
 *
 * <p><b>Thread safety.</b> Thread-safe: the interceptor runs on every thread that sends at once, and
 * {@link #accesses()} may be read meanwhile; it sees every request whose sending started before it
 * was called, and maybe later ones.
 *
 * <p><b>Cost.</b> One entry per distinct access: object names are part of an access, so the memory
 * grows with the number of objects a run touches. Meant for tests and trial runs, not to stay on in
 * production.
 */
public final class AccessRecorder {

    /** Orders accesses by resource, then where, then verb; non-resource accesses last. */
    private static final Comparator<ApiAccess> ORDER = Comparator.comparing(AccessRecorder::sortKey);

    private final Set<ApiAccess> seen = ConcurrentHashMap.newKeySet();
    private final Interceptor interceptor = chain -> {
        seen.add(RequestAttributes.of(chain.request().method(), chain.request().uri()));
        return chain.proceed(chain.request());
    };

    private AccessRecorder() {}

    /** A recorder that has noted nothing. */
    public static AccessRecorder create() {
        return new AccessRecorder();
    }

    /** The interceptor that notes each request it sees, then passes it on unchanged. */
    public Interceptor interceptor() {
        return interceptor;
    }

    /**
     * The distinct accesses noted so far, sorted by group, resource, subresource, namespace, name,
     * verb, then non-resource paths and verbs.
     */
    public List<ApiAccess> accesses() {
        return seen.stream().sorted(ORDER).toList();
    }

    /** Forgets every access noted so far. */
    public void clear() {
        seen.clear();
    }

    private static String sortKey(ApiAccess access) {
        return switch (access) {
            case ApiAccess.Resource r ->
                String.join("\u0000", "0", r.group(), r.resource(), r.subresource(), r.namespace(), r.name(), r.verb());
            case ApiAccess.NonResource n -> String.join("\u0000", "1", n.path(), n.verb());
        };
    }
}
