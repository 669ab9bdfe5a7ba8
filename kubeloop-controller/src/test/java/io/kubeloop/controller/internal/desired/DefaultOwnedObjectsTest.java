package io.kubeloop.controller.internal.desired;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class DefaultOwnedObjectsTest {

    private static ObjectNode json(String text) {
        return (ObjectNode) KubeJson.mapper().readTree(text.replace('\'', '"'));
    }

    @Test
    void theHashOfADesiredStateDoesNotDependOnTheOrderOfItsFields() {
        String a = DefaultOwnedObjects.hash(json("{'kind':'ConfigMap','data':{'a':'1','b':'2'},'list':[1,2]}"));
        String b = DefaultOwnedObjects.hash(json("{'list':[1,2],'data':{'b':'2','a':'1'},'kind':'ConfigMap'}"));
        String c = DefaultOwnedObjects.hash(json("{'list':[2,1],'data':{'b':'2','a':'1'},'kind':'ConfigMap'}"));

        assertThat(a).hasSize(32).isEqualTo(b);
        assertThat(c).as("list order is content").isNotEqualTo(a);
    }

    @Test
    void aSecretsStringDataIsComparedAsTheDataTheServerMakesOfIt() {
        ObjectNode desired =
                json("{'apiVersion':'v1','kind':'Secret','metadata':{'name':'s'},'stringData':{'a':'hi'}}");
        JsonNode held = json("{'metadata':{'name':'s','uid':'u'},'data':{'a':'aGk='},'type':'Opaque'}");
        JsonNode changed = json("{'metadata':{'name':'s'},'data':{'a':'aG8='}}");

        assertThat(DefaultOwnedObjects.inSync(desired, held)).isTrue();
        assertThat(DefaultOwnedObjects.inSync(desired, changed)).isFalse();
        assertThat(desired.has("stringData")).as("the body is not changed").isTrue();
    }

    @Test
    void apiVersionAndKindAreNotComparedAsTypedObjectsFromACacheMayLackThem() {
        ObjectNode desired = json("{'apiVersion':'apps/v1','kind':'Deployment','spec':{'replicas':2}}");

        assertThat(DefaultOwnedObjects.inSync(desired, json("{'spec':{'replicas':2}}")))
                .isTrue();
    }
}
