package com.example.websites;

import io.kubeloop.api.Condition;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.crd.CustomResource;
import io.kubeloop.api.crd.ListMapKeys;
import io.kubeloop.api.crd.ListType;
import io.kubeloop.api.crd.Minimum;
import java.util.List;

/** A web page, served by nginx with the given number of replicas. The source of its own CRD. */
@Kind(group = "demo.example.com", version = "v1")
@CustomResource(status = true)
public record Website(String apiVersion, String kind, ObjectMeta metadata, Spec spec, Status status)
        implements KubernetesObject {

    public record Spec(String html, @Minimum(1) Integer replicas) {}

    public record Status(
            Long observedGeneration,
            @ListType("map") @ListMapKeys("type") List<Condition> conditions) {}

    public static Website of(String namespace, String name, String html, int replicas) {
        return new Website(
                "demo.example.com/v1", "Website", ObjectMeta.of(namespace, name), new Spec(html, replicas), null);
    }

    public Website withStatus(Status newStatus) {
        return new Website(apiVersion, kind, metadata, spec, newStatus);
    }

    public List<Condition> conditions() {
        return status == null || status.conditions() == null ? List.of() : status.conditions();
    }
}
