package com.example.widgets;

import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.crd.CustomResource;
import io.kubeloop.api.crd.Maximum;

@Kind(group = "widgets.example.com", version = "v1")
@CustomResource(shortNames = "wd")
public record Widget(String apiVersion, String kind, ObjectMeta metadata, Spec spec) implements KubernetesObject {

    public static Widget of(String name, int size) {
        return new Widget("widgets.example.com/v1", "Widget", ObjectMeta.of("default", name), new Spec(size));
    }

    public record Spec(@Maximum(10) Integer size) {}
}
