package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/** CustomResourceDefinitions used by the CRD tests, and a helper to install one (test helper). */
final class CrdFixtures {

    private CrdFixtures() {}

    /**
     * The sample-controller's Foo CRD (samplecontroller.k8s.io/v1alpha1), with a status subresource and, as
     * its group is one of the Kubernetes project's, the sample's {@code api-approved.kubernetes.io}.
     */
    static final String FOO = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"foos.samplecontroller.k8s.io",
               "annotations":{"api-approved.kubernetes.io":"unapproved, experimental-only; please get an approval\
             from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io\
             groups"}},
             "spec":{"group":"samplecontroller.k8s.io","scope":"Namespaced",
               "names":{"kind":"Foo","plural":"foos"},
               "versions":[{"name":"v1alpha1","served":true,"storage":true,"subresources":{"status":{}},
                 "schema":{"openAPIV3Schema":{"type":"object","properties":{
                   "spec":{"type":"object","properties":{"deploymentName":{"type":"string"},
                     "replicas":{"type":"integer","minimum":1,"maximum":10}}},
                   "status":{"type":"object","properties":{"availableReplicas":{"type":"integer"}}}}}}}]}}
            """;

    /**
     * {@code widgets.example.com}: versions v1 (storage) and v1beta1 (served), v1alpha1 (not served);
     * status and scale subresources; printer columns (one with priority 1, one date); short name and
     * category; a defaulted field.
     */
    static final String WIDGET = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"widgets.example.com"},
             "spec":{"group":"example.com","scope":"Namespaced",
               "names":{"kind":"Widget","plural":"widgets","shortNames":["wd"],"categories":["all"]},
               "versions":[%s,%s,%s]}}
            """.formatted(
                    widgetVersion("v1beta1", true, false),
                    widgetVersion("v1", true, true),
                    widgetVersion("v1alpha1", false, false));

    private static String widgetVersion(String name, boolean served, boolean storage) {
        return """
                {"name":"%s","served":%s,"storage":%s,
                 "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas",
                   "statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}},
                 "additionalPrinterColumns":[
                   {"name":"Replicas","type":"integer","jsonPath":".spec.replicas"},
                   {"name":"Color","type":"string","jsonPath":".spec.color","priority":1},
                   {"name":"Ready","type":"string","jsonPath":".status.conditions[?(@.type==\\"Ready\\")].status"},
                   {"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}],
                 "schema":{"openAPIV3Schema":{"type":"object","properties":{
                   "spec":{"type":"object","required":["replicas"],"properties":{
                     "replicas":{"type":"integer","minimum":0},
                     "color":{"type":"string","default":"blue","enum":["blue","red"]}}},
                   "status":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"},
                     "conditions":{"type":"array","items":{"type":"object","properties":{
                       "type":{"type":"string"},"status":{"type":"string"}}}}}}}}}}
                """.formatted(name, served, storage);
    }

    /** {@code gadgets.example.com}: cluster-scoped, no printer columns, no subresources. */
    static final String GADGET = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"gadgets.example.com"},
             "spec":{"group":"example.com","scope":"Cluster","names":{"kind":"Gadget","plural":"gadgets"},
               "versions":[{"name":"v1","served":true,"storage":true,
                 "schema":{"openAPIV3Schema":{"type":"object","properties":{
                   "spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]}}
            """;

    /** A CR of {@code apiVersion}/{@code kind} named {@code name} with a {@code spec}. */
    static String object(String apiVersion, String kind, String name, String spec) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":" + spec + "}";
    }

    /** Creates a CRD and waits until it is Established; returns the established object. */
    static JsonNode install(RawHttp http, String crd) {
        HttpResponse<String> r = http.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        String name = RawHttp.json(r).path("metadata").path("name").asString();
        return awaitCondition(http, name, "Established", "True");
    }

    /** Waits until the CRD has condition {@code type} with {@code status}; returns the CRD. */
    static JsonNode awaitCondition(RawHttp http, String name, String type, String status) {
        JsonNode[] out = new JsonNode[1];
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    JsonNode crd =
                            RawHttp.json(http.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name));
                    out[0] = crd;
                    return condition(crd, type)
                            .map(c -> c.path("status").asString().equals(status))
                            .orElse(false);
                });
        return out[0];
    }

    /** A condition of a CRD. */
    static Optional<JsonNode> condition(JsonNode crd, String type) {
        for (JsonNode c : crd.path("status").path("conditions")) {
            if (c.path("type").asString().equals(type)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** A minimal namespaced CRD {@code <plural>.<group>} with a free-form spec and a status subresource. */
    static String simple(String group, String plural, String kind) {
        return """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"%s.%s"},
                 "spec":{"group":"%s","scope":"Namespaced","names":{"kind":"%s","plural":"%s"},
                   "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                     "schema":{"openAPIV3Schema":{"type":"object","properties":{
                       "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
                       "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}
                """.formatted(plural, group, group, kind, plural);
    }
}
