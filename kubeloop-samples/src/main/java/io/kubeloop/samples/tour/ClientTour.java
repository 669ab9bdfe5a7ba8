package io.kubeloop.samples.tour;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.models.core.v1.ConfigMap;
import io.kubeloop.samples.samplecontroller.Foo;
import java.io.PrintStream;

/**
 * A short tour of kubeloop's client, runnable against any API server:
 * {@code java -cp ... io.kubeloop.samples.tour.ClientTour} uses KUBECONFIG (or ~/.kube/config),
 * works in the context's namespace, and cleans up after itself. The README quotes it.
 */
public final class ClientTour {

    private ClientTour() {}

    public static void main(String[] args) {
        try (KubeClient client = KubeClient.create()) {
            run(client, System.out);
        }
    }

    /** The tour itself; every step prints one line. */
    public static void run(KubeClient client, PrintStream out) {
        // 1. A built-in kind, typed: kubeloop's immutable models of every kind carry their @Kind.
        ResourceClient<ConfigMap> configMaps = client.resource(ConfigMap.class);
        ConfigMap created = configMaps.create(ConfigMap.builder()
                .metadata(m -> m.name("tour").label("app", "tour"))
                .putData("greeting", "hello")
                .build());
        out.println("created configmap " + created.metadata().name() + " at resourceVersion "
                + created.metadata().resourceVersion());

        // 2. List with a typed label selector (parse errors point at the offending position).
        LabelSelector selector = LabelSelector.parse("app in (tour, demo), !legacy");
        int matching = configMaps
                .list(ListOptions.builder().labelSelector(selector).build())
                .items()
                .size();
        out.println("configmaps matching '" + selector.format() + "': " + matching);

        // 3. Patch: a JSON merge patch.
        ConfigMap patched = configMaps.patch("tour", PatchType.MERGE, "{\"data\":{\"greeting\":\"hello, kubeloop\"}}");
        out.println("patched greeting: " + patched.data().get("greeting"));

        // 4. Any kind, dynamically: the same object as a JSON tree.
        ResourceClient<DynamicObject> dynamic = client.resource(
                new GroupVersionResource("", "v1", "configmaps"), ResourceScope.NAMESPACED, DynamicObject.class);
        DynamicObject tree = dynamic.get("tour");
        out.println("dynamic read: " + tree.kind() + " " + tree.key() + " greeting="
                + tree.at("/data/greeting").map(v -> v.asString()).orElse("?"));

        // 5. Your own kinds are records: @Kind gives group, version and resource.
        ResourceClient<Foo> foos = client.resource(Foo.class);
        Foo foo = foos.create(Foo.of(client.namespace(), "tour-foo", "tour-web", 2));
        out.println("created " + foo.kind() + " " + foo.key() + " wanting "
                + foo.spec().replicas() + " replicas");

        // 6. Errors are typed: a missing object is a NotFoundException carrying the server's Status.
        configMaps.delete("tour");
        foos.delete("tour-foo");
        try {
            configMaps.get("tour");
        } catch (NotFoundException e) {
            out.println("after delete: " + e.code() + " " + e.reason());
        }
    }
}
