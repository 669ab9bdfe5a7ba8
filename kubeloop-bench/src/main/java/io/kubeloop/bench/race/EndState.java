package io.kubeloop.bench.race;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.client.KubeClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The check of a contender's end state, read from the server (two LISTs, not a cache): every
 * expected Foo exists with the expected {@code spec.replicas} and the same
 * {@code status.availableReplicas}; the Deployment it names exists with those replicas, the labels
 * {@code app=nginx,controller=<foo>} on its selector and Pod template, an nginx container, and a
 * controller owner reference ({@code controller: true}) to the Foo by kind, apiVersion, name and uid.
 *
 * @param checked the Foos checked
 * @param wrong the Foos with at least one problem
 * @param examples the first few problems, for the report
 */
record EndState(int checked, int wrong, List<String> examples) {

    private static final int EXAMPLES = 5;

    /** True when every Foo is as expected. */
    boolean ok() {
        return wrong == 0;
    }

    /** Lists Foos and Deployments in the race's namespace and checks them against {@code expected}. */
    static EndState check(KubeClient client, Map<String, Integer> expected) {
        Map<String, DynamicObject> foos =
                byName(client.resource(FooWorkload.FOOS, ResourceScope.NAMESPACED, DynamicObject.class)
                        .inNamespace(FooWorkload.NAMESPACE)
                        .list()
                        .items());
        Map<String, DynamicObject> deployments =
                byName(client.resource(FooWorkload.DEPLOYMENTS, ResourceScope.NAMESPACED, DynamicObject.class)
                        .inNamespace(FooWorkload.NAMESPACE)
                        .list()
                        .items());
        int wrong = 0;
        List<String> examples = new ArrayList<>();
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            String problem = problem(e.getKey(), e.getValue(), foos.get(e.getKey()), deployments);
            if (problem != null) {
                wrong++;
                if (examples.size() < EXAMPLES) {
                    examples.add(e.getKey() + ": " + problem);
                }
            }
        }
        return new EndState(expected.size(), wrong, List.copyOf(examples));
    }

    private static Map<String, DynamicObject> byName(List<DynamicObject> items) {
        Map<String, DynamicObject> m = new HashMap<>();
        for (DynamicObject o : items) {
            m.put(o.metadata().name(), o);
        }
        return m;
    }

    /** What is wrong with one Foo and its Deployment, or null. */
    private static String problem(String name, int want, DynamicObject foo, Map<String, DynamicObject> deployments) {
        if (foo == null) {
            return "Foo missing";
        }
        JsonNode f = foo.node();
        if (f.path("spec").path("replicas").asInt(-1) != want) {
            return "spec.replicas " + f.path("spec").path("replicas") + ", expected " + want;
        }
        if (f.path("status").path("availableReplicas").asInt(-1) != want) {
            return "status.availableReplicas " + f.path("status").path("availableReplicas") + ", expected " + want;
        }
        String deploymentName = f.path("spec").path("deploymentName").asString("");
        DynamicObject deployment = deployments.get(deploymentName);
        if (deployment == null) {
            return "Deployment " + deploymentName + " missing";
        }
        JsonNode d = deployment.node();
        if (d.path("spec").path("replicas").asInt(-1) != want) {
            return "Deployment replicas " + d.path("spec").path("replicas") + ", expected " + want;
        }
        for (String path : List.of("/spec/selector/matchLabels", "/spec/template/metadata/labels")) {
            JsonNode labels = d.at(path);
            if (!"nginx".equals(labels.path("app").asString(""))
                    || !name.equals(labels.path("controller").asString(""))) {
                return "Deployment labels at " + path + ": " + labels;
            }
        }
        if (!d.at("/spec/template/spec/containers/0/image").asString("").startsWith("nginx")) {
            return "Deployment without the nginx container";
        }
        OwnerReference controller = deployment.metadata().ownerReferencesOrEmpty().stream()
                .filter(OwnerReference::isController)
                .findFirst()
                .orElse(null);
        if (controller == null) {
            return "Deployment without a controller owner reference (owners: "
                    + deployment.metadata().ownerReferencesOrEmpty() + ")";
        }
        if (!"Foo".equals(controller.kind())
                || !"samplecontroller.k8s.io/v1alpha1".equals(controller.apiVersion())
                || !name.equals(controller.name())
                || !Objects.equals(controller.uid(), foo.metadata().uid())) {
            return "Deployment's controller is " + controller;
        }
        return null;
    }
}
