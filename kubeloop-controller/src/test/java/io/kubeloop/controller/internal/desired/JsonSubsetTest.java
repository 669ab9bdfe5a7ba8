package io.kubeloop.controller.internal.desired;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonSubsetTest {

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text.replace('\'', '"'));
    }

    private static boolean covers(String desired, String actual) {
        return JsonSubset.covers(json(desired), json(actual));
    }

    @Test
    void fieldsTheDesiredStateDoesNotSetAreIgnored() {
        assertThat(covers("{'spec':{'replicas':2}}", "{'spec':{'replicas':2,'paused':true},'status':{'ready':1}}"))
                .isTrue();
        assertThat(covers("{'spec':{'replicas':2}}", "{'spec':{'replicas':3}}")).isFalse();
    }

    @Test
    void anEmptyDesiredValueMatchesAnAbsentOne() {
        assertThat(covers("{'a':'','b':false,'c':0,'d':[],'e':{},'f':{'g':''},'h':null}", "{}"))
                .isTrue();
        assertThat(covers("{'a':'x'}", "{}")).isFalse();
        assertThat(covers("{'f':{'g':'x'}}", "{}")).isFalse();
    }

    @Test
    void quantitiesMatchInTheirCanonicalFormOnly() {
        assertThat(covers("{'cpu':'1000m','memory':'1024Mi'}", "{'cpu':'1','memory':'1Gi'}"))
                .isTrue();
        assertThat(covers("{'cpu':'500m'}", "{'cpu':'1'}")).isFalse();
        assertThat(covers("{'version':'1.10'}", "{'version':'1.1'}"))
                .as("a plain string changed to another spelling of the same number differs")
                .isFalse();
    }

    @Test
    void numbersMatchByValueAndAnIntOrStringEitherWay() {
        assertThat(covers("{'n':1}", "{'n':1.0}")).isTrue();
        assertThat(covers("{'port':'80'}", "{'port':80}")).isTrue();
        assertThat(covers("{'port':80}", "{'port':'80'}")).isTrue();
        assertThat(covers("{'port':80}", "{'port':'http'}")).isFalse();
        assertThat(covers("{'cpu':0.5}", "{'cpu':'500m'}")).isTrue();
        assertThat(covers("{'on':true}", "{'on':'true'}")).isFalse();
    }

    @Test
    void namedListItemsMatchByNameInAnyOrderBesideOthers() {
        assertThat(covers(
                        "{'c':[{'name':'a','image':'x'},{'name':'b','image':'y'}]}",
                        "{'c':[{'name':'sidecar'},{'name':'b','image':'y','pull':'Always'},{'name':'a','image':'x'}]}"))
                .isTrue();
        assertThat(covers("{'c':[{'name':'a','image':'x'}]}", "{'c':[{'name':'a','image':'z'}]}"))
                .isFalse();
        assertThat(covers("{'c':[{'name':'a'}]}", "{'c':[{'name':'b'}]}")).isFalse();
    }

    @Test
    void unnamedListItemsMatchInOrderWithItemsAddedBetween() {
        assertThat(covers(
                        "{'p':[{'port':80},{'port':443}]}",
                        "{'p':[{'port':80,'protocol':'TCP'},{'x':1},{'port':443}]}"))
                .isTrue();
        assertThat(covers("{'p':[{'port':80},{'port':443}]}", "{'p':[{'port':443},{'port':80}]}"))
                .isFalse();
        assertThat(covers("{'p':[{'port':80}]}", "{'p':[]}")).isFalse();
    }

    @Test
    void scalarListsMatchElementByElement() {
        assertThat(covers("{'args':['a','b']}", "{'args':['a','b']}")).isTrue();
        assertThat(covers("{'args':['a','b']}", "{'args':['b','a']}")).isFalse();
        assertThat(covers("{'args':['a']}", "{'args':['a','b']}")).isFalse();
        assertThat(covers("{'args':[]}", "{}")).isTrue();
    }

    @Test
    void sameComparesBothWays() {
        assertThat(JsonSubset.same(json("{'a':1,'b':[]}"), json("{'a':1}"))).isTrue();
        assertThat(JsonSubset.same(json("{'a':1}"), json("{'a':1,'b':2}"))).isFalse();
        assertThat(JsonSubset.same(null, json("{}"))).isTrue();
        assertThat(JsonSubset.same(null, json("{'a':1}"))).isFalse();
    }
}
