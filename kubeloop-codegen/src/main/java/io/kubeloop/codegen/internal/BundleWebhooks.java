package io.kubeloop.codegen.internal;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.codegen.BundleWebhook;
import io.kubeloop.codegen.OperatorBundle;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The webhook objects of an {@link OperatorBundle}, as kubebuilder's scaffolding writes them: the webhook
 * Service, cert-manager's self-signed Issuer and the serving Certificate (its Secret mounted by the
 * Deployment), the Mutating- and ValidatingWebhookConfigurations pointing at the Service, and the conversion
 * settings of converted CRDs, all with {@code cert-manager.io/inject-ca-from} so cert-manager fills in the
 * {@code caBundle}s. Stateless.
 */
public final class BundleWebhooks {

    private BundleWebhooks() {}

    /** The Secret cert-manager writes the serving certificate to. */
    public static String secretName(OperatorBundle b) {
        return b.name() + "-webhook-server-cert";
    }

    private static String serviceName(OperatorBundle b) {
        return b.name() + "-webhook-service";
    }

    private static String injectFrom(OperatorBundle b) {
        return b.namespace() + "/" + b.name() + "-serving-cert";
    }

    /** {@code crd} with the Webhook conversion strategy when the bundle converts it; else unchanged. */
    public static ObjectNode withConversion(ObjectNode crd, OperatorBundle b) {
        String name = crd.path("metadata").path("name").asString("");
        boolean converted = b.webhooks().stream()
                .anyMatch(w -> w.type() == BundleWebhook.Type.CONVERSION
                        && w.resource().equals(name));
        if (!converted) {
            return crd;
        }
        crd.withObject("metadata").withObject("annotations").put("cert-manager.io/inject-ca-from", injectFrom(b));
        ObjectNode conversion = crd.withObject("spec").putObject("conversion");
        conversion.put("strategy", "Webhook");
        ObjectNode webhook = conversion.putObject("webhook");
        webhook.putObject("clientConfig").set("service", service(b, "/convert"));
        webhook.putArray("conversionReviewVersions").add("v1");
        return crd;
    }

    /** The Service, Issuer, Certificate and webhook configurations; empty without admission or conversion webhooks. */
    public static List<ObjectNode> objects(OperatorBundle b) {
        List<ObjectNode> out = new ArrayList<>();
        if (b.webhooks().isEmpty()) {
            return out;
        }
        ObjectNode svc = BundleObjects.object("v1", "Service", serviceName(b), b.namespace());
        svc.withObject("metadata").set("labels", b.labels());
        ObjectNode spec = svc.putObject("spec");
        spec.putArray("ports")
                .addObject()
                .put("name", "webhook")
                .put("port", 443)
                .put("protocol", "TCP")
                .put("targetPort", "webhook-server");
        spec.set("selector", b.labels());
        out.add(svc);

        ObjectNode issuer =
                BundleObjects.object("cert-manager.io/v1", "Issuer", b.name() + "-selfsigned-issuer", b.namespace());
        issuer.putObject("spec").putObject("selfSigned");
        out.add(issuer);
        ObjectNode cert =
                BundleObjects.object("cert-manager.io/v1", "Certificate", b.name() + "-serving-cert", b.namespace());
        ObjectNode certSpec = cert.putObject("spec");
        ArrayNode dns = certSpec.putArray("dnsNames");
        dns.add(serviceName(b) + "." + b.namespace() + ".svc");
        dns.add(serviceName(b) + "." + b.namespace() + ".svc.cluster.local");
        certSpec.putObject("issuerRef").put("kind", "Issuer").put("name", b.name() + "-selfsigned-issuer");
        certSpec.put("secretName", secretName(b));
        out.add(cert);

        for (BundleWebhook.Type type : List.of(BundleWebhook.Type.MUTATING, BundleWebhook.Type.VALIDATING)) {
            List<BundleWebhook> hooks =
                    b.webhooks().stream().filter(w -> w.type() == type).toList();
            if (hooks.isEmpty()) {
                continue;
            }
            boolean mutating = type == BundleWebhook.Type.MUTATING;
            ObjectNode config = BundleObjects.object(
                    "admissionregistration.k8s.io/v1",
                    mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration",
                    b.name() + (mutating ? "-mutating" : "-validating") + "-webhook-configuration",
                    null);
            config.withObject("metadata").putObject("annotations").put("cert-manager.io/inject-ca-from", injectFrom(b));
            ArrayNode list = config.putArray("webhooks");
            for (BundleWebhook w : hooks) {
                ObjectNode h = list.addObject();
                h.put("name", w.webhookName());
                h.putObject("clientConfig").set("service", service(b, w.path()));
                ObjectNode rule = h.putArray("rules").addObject();
                rule.putArray("apiGroups").add(w.group());
                rule.putArray("apiVersions").add(w.version());
                ArrayNode ops = rule.putArray("operations");
                w.operations().forEach(ops::add);
                rule.putArray("resources").add(w.resource());
                h.put("failurePolicy", "Fail");
                h.put("sideEffects", "None");
                h.putArray("admissionReviewVersions").add("v1");
            }
            out.add(config);
        }
        return out;
    }

    private static ObjectNode service(OperatorBundle b, String path) {
        ObjectNode s = KubeJson.mapper().createObjectNode();
        s.put("name", serviceName(b)).put("namespace", b.namespace()).put("path", path);
        return s;
    }
}
