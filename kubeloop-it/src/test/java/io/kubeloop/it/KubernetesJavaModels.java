package io.kubeloop.it;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import io.kubernetes.client.openapi.JSON;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/** kubernetes-client/java's models of the built-in kinds, read and written by its own Gson set-up. */
final class KubernetesJavaModels {

    private KubernetesJavaModels() {}

    /** The model class of a kind ({@code V1Pod}, {@code V2HorizontalPodAutoscaler}, {@code CoreV1Event}), or null. */
    static Class<?> classOf(GroupVersionKind gvk) {
        String version = gvk.version().substring(0, 1).toUpperCase(Locale.ROOT)
                + gvk.version().substring(1);
        String[] names = {
            version + gvk.kind(),
            (gvk.group().isEmpty() ? "Core" : capitalizedGroup(gvk.group())) + version + gvk.kind()
        };
        for (String name : names) {
            try {
                return Class.forName("io.kubernetes.client.openapi.models." + name);
            } catch (ClassNotFoundException e) {
                // try the next naming
            }
        }
        return null;
    }

    private static String capitalizedGroup(String group) {
        String first = group.split("\\.")[0];
        return first.substring(0, 1).toUpperCase(Locale.ROOT) + first.substring(1);
    }

    /** {@code json} read into {@code type} by kubernetes-client/java and written back, as a tree. */
    static JsonNode roundTrip(byte[] json, Class<?> type) {
        Object model = JSON.deserialize(new String(json, StandardCharsets.UTF_8), type);
        return KubeJson.mapper().readTree(JSON.serialize(model));
    }
}
