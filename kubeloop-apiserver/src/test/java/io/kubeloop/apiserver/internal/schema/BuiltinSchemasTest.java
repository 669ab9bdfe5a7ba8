package io.kubeloop.apiserver.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class BuiltinSchemasTest {

    private static final GroupVersionKind DEPLOYMENT = new GroupVersionKind("apps", "v1", "Deployment");

    private static ObjectNode json(String text) {
        return (ObjectNode) KubeJson.mapper().readTree(text);
    }

    private static StructuralSchema schema(GroupVersionKind gvk) {
        return BuiltinSchemas.forKind(gvk).orElseThrow();
    }

    @Test
    void everyServedBuiltinKindHasASchema() {
        List<GroupVersionKind> served = List.of(
                new GroupVersionKind("", "v1", "Pod"),
                new GroupVersionKind("", "v1", "Service"),
                new GroupVersionKind("", "v1", "Endpoints"),
                new GroupVersionKind("", "v1", "ConfigMap"),
                new GroupVersionKind("", "v1", "Secret"),
                new GroupVersionKind("", "v1", "ServiceAccount"),
                new GroupVersionKind("", "v1", "Namespace"),
                new GroupVersionKind("", "v1", "Node"),
                new GroupVersionKind("", "v1", "Event"),
                DEPLOYMENT,
                new GroupVersionKind("apps", "v1", "ReplicaSet"),
                new GroupVersionKind("apps", "v1", "StatefulSet"),
                new GroupVersionKind("apps", "v1", "DaemonSet"),
                new GroupVersionKind("batch", "v1", "Job"),
                new GroupVersionKind("batch", "v1", "CronJob"),
                new GroupVersionKind("coordination.k8s.io", "v1", "Lease"),
                new GroupVersionKind("events.k8s.io", "v1", "Event"),
                new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"));
        assertThat(BuiltinSchemas.standard().kinds()).containsAll(served);
    }

    @Test
    void listKindsHaveSchemas() {
        assertThat(BuiltinSchemas.forKind(new GroupVersionKind("apps", "v1", "DeploymentList")))
                .isPresent();
    }

    @Test
    void unknownKindHasNoSchema() {
        assertThat(BuiltinSchemas.forKind(new GroupVersionKind("example.com", "v1", "Foo")))
                .isEmpty();
    }

    @Test
    void deploymentReplicasIsAnInt32() {
        StructuralSchema replicas =
                schema(DEPLOYMENT).properties().get("spec").properties().get("replicas");
        assertThat(replicas.type()).isEqualTo("integer");
        assertThat(replicas.format()).isEqualTo("int32");
    }

    @Test
    void kindSchemasAreNamedLikeTheRealDefinitions() {
        assertThat(schema(DEPLOYMENT).definitionName()).isEqualTo("io.k8s.api.apps.v1.Deployment");
        assertThat(schema(DEPLOYMENT).properties().get("metadata").definitionName())
                .isEqualTo("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        assertThat(BuiltinSchemas.standard().definitions())
                .containsKeys(
                        "io.k8s.api.core.v1.PodSpec",
                        "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
                        "io.k8s.apimachinery.pkg.api.resource.Quantity",
                        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
                        "io.k8s.api.batch.v1.CronJob",
                        "io.k8s.api.events.v1.Event");
    }

    @Test
    void containerPortsCarryTheirStrategicMergeKey() {
        StructuralSchema ports = BuiltinSchemas.standard()
                .definitions()
                .get("io.k8s.api.core.v1.Container")
                .properties()
                .get("ports");
        assertThat(ports.patchMergeKey()).isEqualTo("containerPort");
        assertThat(ports.patchStrategy()).isEqualTo("merge");
        assertThat(ports.listMapKeys()).containsExactly("containerPort", "protocol");
    }

    @Test
    void intOrStringFieldsAreIntOrString() {
        StructuralSchema maxSurge = BuiltinSchemas.standard()
                .definitions()
                .get("io.k8s.api.apps.v1.RollingUpdateDeployment")
                .properties()
                .get("maxSurge");
        assertThat(maxSurge.intOrString()).isTrue();
    }

    @Test
    void timestampsAreDateTimeStrings() {
        StructuralSchema created = BuiltinSchemas.standard()
                .definitions()
                .get("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
                .properties()
                .get("creationTimestamp");
        assertThat(created.type()).isEqualTo("string");
        assertThat(created.format()).isEqualTo("date-time");
    }

    @Test
    void pruningADeploymentReportsUnknownFieldsWithListIndexes() {
        ObjectNode d = json("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","labels":{"a":"b"}},
                 "spec":{"replicas":1,"foo":1,"selector":{"matchLabels":{"a":"b"}},
                  "template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i",
                   "bar":true,"resources":{"limits":{"cpu":"1"}},"ports":[{"containerPort":80}]}]}}}}""");
        assertThat(schema(DEPLOYMENT).prune(d)).containsExactly("spec.foo", "spec.template.spec.containers[0].bar");
        assertThat(d.path("spec").has("foo")).isFalse();
    }

    @Test
    void aValidDeploymentHasNothingToPrune() {
        ObjectNode d = json("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","annotations":{"x":"y"},
                  "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"u"}]},
                 "spec":{"replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}},
                  "selector":{"matchLabels":{"a":"b"}},
                  "template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i",
                   "env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}]}}},
                 "status":{"conditions":[{"type":"Available","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z"}]}}""");
        assertThat(schema(DEPLOYMENT).prune(d)).isEmpty();
    }

    @Test
    void unknownMetadataFieldsArePrunedUnderMetadata() {
        ObjectNode cm = json("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","bogus":1},"data":{"k":"v"}}""");
        assertThat(schema(new GroupVersionKind("", "v1", "ConfigMap")).prune(cm))
                .containsExactly("metadata.bogus");
    }

    @Test
    void crdSchemasInsideACrdAreRecursive() {
        ObjectNode crd = json("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"foos.x.io"},
                 "spec":{"group":"x.io","names":{"plural":"foos","kind":"Foo"},"scope":"Namespaced",
                  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
                   "properties":{"spec":{"type":"object","properties":{"n":{"type":"integer","default":1}},
                   "x-kubernetes-preserve-unknown-fields":true}}}},"bogus":1}]}}""");
        assertThat(schema(new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"))
                        .prune(crd))
                .containsExactly("spec.versions[0].bogus");
    }
}
