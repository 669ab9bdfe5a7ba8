package io.kubeloop.samples.samplecontroller;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import java.time.Duration;

/**
 * The Foo CustomResourceDefinition ({@code foos.samplecontroller.k8s.io}, v1alpha1, namespaced,
 * with a status subresource; replicas 1 to 10), as the Go sample-controller's
 * {@code artifacts/examples/crd-status-subresource.yaml}.
 */
public final class FooCrd {

    /** The CRD's name. */
    public static final String NAME = "foos.samplecontroller.k8s.io";

    /** The CRD, as JSON. */
    public static final String JSON = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"foos.samplecontroller.k8s.io"},
             "spec":{"group":"samplecontroller.k8s.io","scope":"Namespaced",
               "names":{"kind":"Foo","plural":"foos","singular":"foo","listKind":"FooList"},
               "versions":[{"name":"v1alpha1","served":true,"storage":true,"subresources":{"status":{}},
                 "schema":{"openAPIV3Schema":{"type":"object","properties":{
                   "spec":{"type":"object","properties":{"deploymentName":{"type":"string"},
                     "replicas":{"type":"integer","minimum":1,"maximum":10}}},
                   "status":{"type":"object","properties":{"availableReplicas":{"type":"integer"}}}}}}}]}}
            """;

    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

    private FooCrd() {
    }

    /**
     * Creates the CRD unless it exists, and waits until the server serves Foos (condition
     * {@code Established}).
     *
     * @param client the cluster
     * @param timeout how long to wait for {@code Established}
     * @throws IllegalStateException if it is not established in time
     */
    public static void install(KubeClient client, Duration timeout) {
        ResourceClient<DynamicObject> crds = client.resource(CRDS, false, DynamicObject.class);
        try {
            crds.create(DynamicObject.parse(JSON));
        } catch (AlreadyExistsException exists) {
            // installed before: fine
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!established(crds.get(NAME))) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("CRD " + NAME + " was not established within " + timeout);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for CRD " + NAME, e);
            }
        }
    }

    private static boolean established(DynamicObject crd) {
        return crd.at("/status/conditions").map(conditions -> {
            for (var c : conditions) {
                if ("Established".equals(c.path("type").asString()) && "True".equals(c.path("status").asString())) {
                    return true;
                }
            }
            return false;
        }).orElse(false);
    }
}
