package io.kubeloop.controller.rbac;

import io.kubeloop.api.Scheme;
import io.kubeloop.api.internal.RequestInfo;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.controller.internal.rbac.ImpliedAccesses;
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
 * (403) is noted too, with the authorizations a real cluster makes for it beyond its own verb, so that
 * what is noted is what some cluster requires: {@code create} for every server-side apply (it creates the
 * object when missing) and for a PUT of a kind that creates on update (Leases, Services, Events, Endpoints,
 * LimitRanges, RBAC objects); {@code update} on the owner's {@code finalizers} for an owner reference with
 * {@code blockOwnerDeletion: true} (a controller reference), in the object's namespace, as clusters enforcing
 * owner references (OpenShift) require; {@code delete} on the object for a patch that sets its owner
 * references (an adoption, on those clusters). An owner's resource is the built-in kind's, else its kind's
 * guessed plural ({@code Foo} → {@code foos}). Each distinct access is kept once. Any client can record through
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
        note(chain.request());
        return chain.proceed(chain.request());
    };

    private AccessRecorder() {}

    private void note(ApiRequest request) {
        ApiAccess access;
        try {
            access = RequestAttributes.of(request.method(), request.uri());
        } catch (RequestInfo.Unresolvable neverAuthorized) {
            return; // the API server refuses such a path before it authorizes anything
        }
        seen.add(access);
        if (access instanceof ApiAccess.Resource r) {
            seen.addAll(ImpliedAccesses.of(r, request.header("Content-Type"), request.body(), Scheme.defaults()));
        }
    }

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
