package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.JsonPatchTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class StrategicMergePatchTest {

    static final StrategicMergeSchema DEPLOYMENT =
            StrategicMergeSchemas.forKind("apps/v1", "Deployment").orElseThrow();
    static final StrategicMergeSchema POD =
            StrategicMergeSchemas.forKind("v1", "Pod").orElseThrow();

    static final String LIVE = """
            {'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'},
             'annotations':{'a':'1'}},
             'spec':{'replicas':1,'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}},
              'template':{'metadata':{'labels':{'app':'web'}},'spec':{
               'containers':[{'name':'web','image':'nginx:1.24','ports':[{'containerPort':80},{'containerPort':8080}],
                              'env':[{'name':'A','value':'1'},{'name':'B','value':'2'}]},
                             {'name':'sidecar','image':'busybox'}],
               'tolerations':[{'key':'a','operator':'Exists'}]}}}}""";

    static JsonNode smp(String live, String patch, StrategicMergeSchema schema) {
        return StrategicMergePatch.apply(json(live), patch.replace('\'', '"'), schema);
    }

    @Test
    void setImageMergesTheContainerByName() {
        JsonNode out = smp(
                LIVE,
                "{'spec':{'template':{'spec':{'containers':[{'image':'nginx:1.26','name':'web'}]}}}}",
                DEPLOYMENT);
        JsonNode containers = out.at("/spec/template/spec/containers");
        assertThat(containers.size()).isEqualTo(2);
        assertThat(containers.get(0).get("image").asString()).isEqualTo("nginx:1.26");
        assertThat(containers.get(0).get("env").size()).isEqualTo(2);
        assertThat(containers.get(1).get("name").asString()).isEqualTo("sidecar");
    }

    @Test
    void rolloutRestartAddsATemplateAnnotation() {
        JsonNode out = smp(
                LIVE,
                "{'spec':{'template':{'metadata':{'annotations':{'kubectl.kubernetes.io/restartedAt':'now'}}}}}",
                DEPLOYMENT);
        assertThat(out.at("/spec/template/metadata"))
                .isEqualTo(json("{'labels':{'app':'web'},'annotations':{'kubectl.kubernetes.io/restartedAt':'now'}}"));
    }

    @Test
    void envMergesByNameAndNewItemsFollowThePatchOrder() {
        JsonNode out = smp(
                LIVE,
                "{'spec':{'template':{'spec':{'containers':[{'name':'web','env':[{'name':'C','value':'3'},{'name':'A','value':'9'}]}]}}}}",
                DEPLOYMENT);
        assertThat(out.at("/spec/template/spec/containers/0/env"))
                .isEqualTo(json("[{'name':'C','value':'3'},{'name':'A','value':'9'},{'name':'B','value':'2'}]"));
    }

    @Test
    void kubectlApplyThreeWayPatchDeletesAPortAndKeepsOrder() {
        String patch = "{'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'},{'name':'sidecar'}],"
                + "'containers':[{'$setElementOrder/ports':[{'containerPort':80}],'image':'nginx:1.25','name':'web',"
                + "'ports':[{'$patch':'delete','containerPort':8080}]}]}}}}";
        JsonNode out = smp(LIVE, patch, DEPLOYMENT);
        assertThat(out.at("/spec/template/spec/containers/0/ports")).isEqualTo(json("[{'containerPort':80}]"));
        assertThat(out.at("/spec/template/spec/containers/0/image").asString()).isEqualTo("nginx:1.25");
        assertThat(out.at("/spec/template/spec/containers/1/name").asString()).isEqualTo("sidecar");
    }

    @Test
    void setElementOrderReordersTheMergedList() {
        String patch =
                "{'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'sidecar'},{'name':'web'}]}}}}";
        JsonNode out = smp(LIVE, patch, DEPLOYMENT);
        assertThat(out.at("/spec/template/spec/containers/0/name").asString()).isEqualTo("sidecar");
        assertThat(out.at("/spec/template/spec/containers/1/name").asString()).isEqualTo("web");
    }

    @Test
    void retainKeysDropsTheOtherStrategyFields() {
        JsonNode out = smp(LIVE, "{'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate'}}}", DEPLOYMENT);
        assertThat(out.at("/spec/strategy")).isEqualTo(json("{'type':'Recreate'}"));
    }

    @Test
    void retainKeysMustListEveryPatchedField() {
        assertThatThrownBy(() -> smp(
                        LIVE, "{'spec':{'strategy':{'$retainKeys':['rollingUpdate'],'type':'Recreate'}}}", DEPLOYMENT))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo("invalid patch format of retainKeys");
                });
    }

    @Test
    void listsWithoutMergeStrategyAreReplaced() {
        JsonNode out = smp(
                LIVE, "{'spec':{'template':{'spec':{'tolerations':[{'key':'b','operator':'Exists'}]}}}}", DEPLOYMENT);
        assertThat(out.at("/spec/template/spec/tolerations")).isEqualTo(json("[{'key':'b','operator':'Exists'}]"));
    }

    @Test
    void nullDeletesAField() {
        JsonNode out = smp(LIVE, "{'metadata':{'annotations':{'a':null}}}", DEPLOYMENT);
        assertThat(out.at("/metadata/annotations")).isEqualTo(json("{}"));
    }

    @Test
    void patchDeleteDirectiveRemovesAListItem() {
        JsonNode out = smp(
                LIVE,
                "{'spec':{'template':{'spec':{'containers':[{'$patch':'delete','name':'sidecar'}]}}}}",
                DEPLOYMENT);
        assertThat(out.at("/spec/template/spec/containers").size()).isEqualTo(1);
    }

    @Test
    void patchReplaceDirectiveReplacesAList() {
        JsonNode out = smp(
                LIVE,
                "{'spec':{'template':{'spec':{'containers':[{'name':'only','image':'x'},{'$patch':'replace'}]}}}}",
                DEPLOYMENT);
        assertThat(out.at("/spec/template/spec/containers")).isEqualTo(json("[{'name':'only','image':'x'}]"));
    }

    @Test
    void patchReplaceDirectiveReplacesAnObject() {
        JsonNode out = smp(LIVE, "{'metadata':{'labels':{'$patch':'replace','tier':'x'}}}", DEPLOYMENT);
        assertThat(out.at("/metadata/labels")).isEqualTo(json("{'tier':'x'}"));
    }

    @Test
    void finalizersMergeAsASet() {
        JsonNode out = smp("{'metadata':{'finalizers':['a','b']}}", "{'metadata':{'finalizers':['c','a']}}", POD);
        assertThat(out.at("/metadata/finalizers")).isEqualTo(json("['c','a','b']"));
    }

    @Test
    void deleteFromPrimitiveListRemovesFinalizers() {
        JsonNode out = smp(
                "{'metadata':{'finalizers':['a','b']}}",
                "{'metadata':{'$deleteFromPrimitiveList/finalizers':['a']}}",
                POD);
        assertThat(out.at("/metadata/finalizers")).isEqualTo(json("['b']"));
    }

    @Test
    void containerPortsMergeByContainerPort() {
        JsonNode out = smp(
                "{'spec':{'containers':[{'name':'c','ports':[{'containerPort':80,'name':'http'}]}]}}",
                "{'spec':{'containers':[{'name':'c','ports':[{'containerPort':80,'protocol':'TCP'},{'containerPort':443}]}]}}",
                POD);
        assertThat(out.at("/spec/containers/0/ports"))
                .isEqualTo(json("[{'containerPort':80,'name':'http','protocol':'TCP'},{'containerPort':443}]"));
    }

    @Test
    void serviceSelectorIsMergedAsAMapBySmp() {
        StrategicMergeSchema svc =
                StrategicMergeSchemas.forKind("v1", "Service").orElseThrow();
        JsonNode out = smp(
                "{'spec':{'selector':{'a':'1'},'ports':[{'port':80,'targetPort':8080}]}}",
                "{'spec':{'selector':{'b':'2'},'ports':[{'port':80,'targetPort':9090}]}}",
                svc);
        assertThat(out.at("/spec"))
                .isEqualTo(json("{'selector':{'a':'1','b':'2'},'ports':[{'port':80,'targetPort':9090}]}"));
    }

    @Test
    void itemWithoutTheMergeKeyIsAnUnclassifiedServerError() {
        assertThatThrownBy(() -> smp(LIVE, "{'spec':{'template':{'spec':{'containers':[{'image':'x'}]}}}}", DEPLOYMENT))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(500);
                    assertThat(e.reason()).isEmpty();
                    assertThat(e.getMessage()).isEqualTo("map: map[image:x] does not contain declared merge key: name");
                });
    }

    @Test
    void badDeleteFromPrimitiveListKeyIsABadRequest() {
        assertThatThrownBy(() -> smp(LIVE, "{'metadata':{'$deleteFromPrimitiveListfinalizers':['a']}}", DEPLOYMENT))
                .isInstanceOfSatisfying(
                        PatchException.class,
                        e -> assertThat(e.getMessage()).isEqualTo("invalid patch format of primitive list"));
    }

    @Test
    void listOfListsIsInvalid() {
        assertThatThrownBy(() -> smp("{'metadata':{'finalizers':[]}}", "{'metadata':{'finalizers':[['b']]}}", POD))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(422));
    }

    @Test
    void nonObjectPatchIsABadRequest() {
        assertThatThrownBy(() -> smp(LIVE, "[1]", DEPLOYMENT))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(400));
    }

    @Test
    void theInputsAreNotModified() {
        JsonNode live = json(LIVE);
        JsonNode patch = json("{'spec':{'template':{'spec':{'containers':[{'$patch':'delete','name':'web'}]}}}}");
        StrategicMergePatch.apply(live, patch, DEPLOYMENT);
        assertThat(live).isEqualTo(json(LIVE));
        assertThat(patch)
                .isEqualTo(json("{'spec':{'template':{'spec':{'containers':[{'$patch':'delete','name':'web'}]}}}}"));
    }

    @Test
    void everyServedBuiltInKindHasASchema() {
        for (String[] k : new String[][] {
            {"v1", "Pod"},
            {"apps/v1", "Deployment"},
            {"apps/v1", "ReplicaSet"},
            {"apps/v1", "StatefulSet"},
            {"apps/v1", "DaemonSet"},
            {"batch/v1", "Job"},
            {"batch/v1", "CronJob"},
            {"v1", "Service"},
            {"v1", "ConfigMap"},
            {"v1", "Secret"},
            {"v1", "ServiceAccount"},
            {"v1", "Namespace"},
            {"v1", "Node"},
            {"v1", "Endpoints"},
            {"v1", "Event"},
            {"events.k8s.io/v1", "Event"},
            {"coordination.k8s.io/v1", "Lease"}
        }) {
            assertThat(StrategicMergeSchemas.forKind(k[0], k[1])).as(k[1]).isPresent();
        }
    }
}
