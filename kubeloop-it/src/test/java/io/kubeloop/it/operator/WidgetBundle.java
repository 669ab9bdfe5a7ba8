package io.kubeloop.it.operator;

import io.kubeloop.codegen.OperatorBundle;
import io.kubeloop.controller.rbac.RbacManifests;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** The Widget operator's bundle, as the Maven goal writes it: its CRD, its RBAC, its Deployment. */
public final class WidgetBundle {

    private WidgetBundle() {}

    /** The bundle running in {@code namespace}, electing its leader on the Lease {@link WidgetOperator#NAME}. */
    public static OperatorBundle of(String namespace) {
        List<ObjectNode> rbac = RbacManifests.forControllers(
                        List.of(WidgetOperator.class), WidgetOperator.NAME, namespace, WidgetOperator.NAME)
                .objects()
                .stream()
                .map(o -> o.node().deepCopy())
                .toList();
        return OperatorBundle.of(WidgetOperator.NAME, namespace, "example.com/widget-operator:1.0")
                .withCrds(List.of(WidgetCrd.crd()))
                .withRbac(rbac)
                .withLeaderElectionId(WidgetOperator.NAME);
    }

    /** The bundle's Deployment. */
    public static ObjectNode deployment(OperatorBundle bundle) {
        return bundle.objects().stream()
                .filter(o -> o.path("kind").asString("").equals("Deployment"))
                .findFirst()
                .orElseThrow();
    }

    /** The Deployment's one container. */
    public static ObjectNode container(OperatorBundle bundle) {
        return (ObjectNode) deployment(bundle)
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
    }
}
