package io.kubeloop.it.operator;

import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.crd.CustomResource;

/**
 * The custom resource of a user-style operator written in a test package: a record with {@code @Kind} and
 * {@code @CustomResource}, the source of its own CRD ({@code CrdGenerator}).
 */
@Kind(group = "widgets.example.com", version = "v1")
@CustomResource(status = true)
public record Widget(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
        implements KubernetesObject {

    public static final String API_VERSION = "widgets.example.com/v1";

    /** A new Widget with {@code message}. */
    public static Widget of(String namespace, String name, String message) {
        return new Widget(API_VERSION, "Widget", ObjectMeta.of(namespace, name), new Spec(message), null);
    }

    /** This Widget with {@code status}. */
    public Widget withStatus(Status status) {
        return new Widget(apiVersion, kind, metadata, spec, status);
    }

    /** @param message what the operator copies into the status */
    public record Spec(String message) {}

    /**
     * @param message the spec's message, as last reconciled
     * @param reconciledBy the replica (its host name) that reconciled it
     */
    public record Status(String message, String reconciledBy) {}
}
