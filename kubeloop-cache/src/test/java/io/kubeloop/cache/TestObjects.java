package io.kubeloop.cache;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectMeta;
import java.util.Map;

/** Small objects for tests. */
public final class TestObjects {

    private TestObjects() {}

    public static DynamicObject pod(String namespace, String name) {
        return pod(namespace, name, "1", Map.of());
    }

    public static DynamicObject pod(String namespace, String name, String rv) {
        return pod(namespace, name, rv, Map.of());
    }

    public static DynamicObject pod(String namespace, String name, String rv, Map<String, String> labels) {
        ObjectMeta.Builder m = ObjectMeta.builder().name(name).resourceVersion(rv);
        if (namespace != null && !namespace.isEmpty()) {
            m.namespace(namespace);
        }
        if (!labels.isEmpty()) {
            m.labels(labels);
        }
        return DynamicObject.of("v1", "Pod", m.build());
    }

    public static DynamicObject node(String name) {
        return DynamicObject.of(
                "v1",
                "Node",
                ObjectMeta.builder().name(name).resourceVersion("1").build());
    }

    public static String rv(Object o) {
        return ObjectAccess.resourceVersion(o);
    }

    public static String name(Object o) {
        return ObjectAccess.name(o);
    }
}
