package io.kubeloop.samples.samplecontroller;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Wait;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The Foo CustomResourceDefinition ({@code foos.samplecontroller.k8s.io}, v1alpha1, namespaced,
 * with a status subresource; replicas 1 to 10), generated from the {@link Foo} record during the
 * build into {@code META-INF/kubeloop/crds/} on the class path, as controller-gen writes the Go
 * sample-controller's CRD from its {@code types.go}.
 */
public final class FooCrd {

    /** The CRD's name. */
    public static final String NAME = "foos.samplecontroller.k8s.io";

    /** Where the build puts the CRD on the class path. */
    public static final String RESOURCE = "/META-INF/kubeloop/crds/" + NAME + ".yaml";

    /** Between checks of the CRD's conditions; also the first back-off after a transient failure. */
    private static final Duration INTERVAL = Duration.ofMillis(50);

    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

    private FooCrd() {}

    /**
     * The CRD as the build generated it from {@link Foo}.
     *
     * @return the CRD's YAML
     * @throws IllegalStateException if the class path lacks it (a build that skipped the generate-crds goal)
     */
    public static String yaml() {
        try (InputStream in = FooCrd.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path: build with Maven, whose"
                        + " generate-crds goal writes it from the Foo record");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates the CRD unless it exists, and waits until the server serves Foos (condition
     * {@code Established}). Both steps ride out transient failures (429, 5xx, a broken connection)
     * with back-off until the timeout ({@link Wait}); a create whose answer was lost is found
     * installed on the next try.
     *
     * @param client the cluster
     * @param timeout how long to wait in all
     * @throws IllegalStateException if it is not established in time (naming the last transient
     *     failure, if any)
     * @throws io.kubeloop.api.errors.ApiException at once for a failure that is not transient (403,
     *     422…)
     */
    public static void install(KubeClient client, Duration timeout) {
        ResourceClient<DynamicObject> crds = client.resource(CRDS, ResourceScope.CLUSTER, DynamicObject.class);
        DynamicObject crd = KubeYaml.readAll(yaml()).getFirst();
        long deadline = System.nanoTime() + timeout.toNanos();
        Wait.until("CRD " + NAME + " to be created", INTERVAL, timeout, () -> {
            try {
                crds.create(crd);
            } catch (AlreadyExistsException exists) {
                // installed before, or by an attempt whose answer was lost: fine
            }
            return true;
        });
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        Wait.until("CRD " + NAME + " to be established", INTERVAL, left, () -> established(crds.get(NAME)));
    }

    private static boolean established(DynamicObject crd) {
        return crd.at("/status/conditions")
                .map(conditions -> {
                    for (var c : conditions) {
                        if ("Established".equals(c.path("type").asString())
                                && "True".equals(c.path("status").asString())) {
                            return true;
                        }
                    }
                    return false;
                })
                .orElse(false);
    }
}
