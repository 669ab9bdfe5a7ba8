package io.kubeloop.bench.race;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.List;

/**
 * A list of {@link JavaClientFoo}s as the server sends it, for kubernetes-client/java's
 * {@code GenericKubernetesApi}.
 *
 * @param apiVersion the list's apiVersion
 * @param kind {@code FooList}
 * @param metadata the list's metadata (its resourceVersion)
 * @param items the Foos
 */
record JavaClientFooList(String apiVersion, String kind, V1ListMeta metadata, List<JavaClientFoo> items)
        implements KubernetesListObject {

    @Override
    public V1ListMeta getMetadata() {
        return metadata;
    }

    @Override
    public List<JavaClientFoo> getItems() {
        return items;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }
}
