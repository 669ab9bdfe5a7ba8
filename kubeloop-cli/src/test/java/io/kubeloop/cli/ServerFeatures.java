package io.kubeloop.cli;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.http.TransportException;

/**
 * What the server under test supports today, probed once over its API — so kubectl tests that need
 * a feature still being built (OpenAPI, strategic merge, server-side apply, the scale subresource)
 * skip with a message naming it, and turn on by themselves once it lands.
 *
 * @param openApiV3 {@code GET /openapi/v3} answers 200 (kubectl's default strict validation, apply, edit, explain)
 * @param strategicMerge a strategic-merge patch of a ConfigMap succeeds
 * @param serverSideApply an {@code application/apply-patch+yaml} patch succeeds
 * @param scale {@code GET .../deployments/NAME/scale} answers
 */
record ServerFeatures(boolean openApiV3, boolean strategicMerge, boolean serverSideApply, boolean scale) {

    static ServerFeatures probe(KubeClient client, String namespace) {
        return new ServerFeatures(
                succeeds(() -> client.raw().get("/openapi/v3")),
                succeeds(() -> {
                    ResourceClient<DynamicObject> cms =
                            client.resource("configmaps").inNamespace(namespace);
                    cms.create(DynamicObject.parse(
                            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"probe-smp\"}}"));
                    cms.patch("probe-smp", PatchType.STRATEGIC_MERGE, "{\"data\":{\"k\":\"v\"}}");
                }),
                succeeds(() -> client.resource("configmaps")
                        .inNamespace(namespace)
                        .patch(
                                "probe-ssa",
                                PatchType.APPLY,
                                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"probe-ssa\"},\"data\":{\"k\":\"v\"}}",
                                PatchOptions.apply("probe"))),
                succeeds(() -> {
                    client.resource("deployments")
                            .inNamespace(namespace)
                            .create(DynamicObject.parse(KubectlCompatibilityTest.deployment("probe-scale", "nginx")));
                    client.raw().get("/apis/apps/v1/namespaces/" + namespace + "/deployments/probe-scale/scale");
                }));
    }

    private static boolean succeeds(Runnable probe) {
        try {
            probe.run();
            return true;
        } catch (ApiException | TransportException | IllegalArgumentException | IllegalStateException e) {
            return false;
        }
    }
}
