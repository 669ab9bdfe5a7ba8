package io.kubeloop.apiserver.internal.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonPatchTest {

    static JsonNode json(String s) {
        return KubeJson.mapper().readTree(s.replace('\'', '"'));
    }

    static JsonNode patch(String doc, String ops) {
        return JsonPatch.apply(json(doc), ops.replace('\'', '"'));
    }

    @Test
    void addSetsAMember() {
        assertThat(patch("{'a':1}", "[{'op':'add','path':'/b','value':2}]")).isEqualTo(json("{'a':1,'b':2}"));
    }

    @Test
    void addWithDashAppends() {
        assertThat(patch("{'l':[1,2]}", "[{'op':'add','path':'/l/-','value':3}]"))
                .isEqualTo(json("{'l':[1,2,3]}"));
    }

    @Test
    void addInsertsAtAnIndex() {
        assertThat(patch("{'l':[1,2]}", "[{'op':'add','path':'/l/0','value':0}]"))
                .isEqualTo(json("{'l':[0,1,2]}"));
    }

    @Test
    void addWithNegativeOneAppendsLikeEvanphx() {
        assertThat(patch("{'l':[1,2]}", "[{'op':'add','path':'/l/-1','value':3}]"))
                .isEqualTo(json("{'l':[1,2,3]}"));
    }

    @Test
    void addPastTheEndIsInvalid() {
        assertThatThrownBy(() -> patch("{'l':[1]}", "[{'op':'add','path':'/l/5','value':3}]"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(422));
    }

    @Test
    void pointerTokensAreUnescaped() {
        JsonNode out = patch(
                "{'metadata':{'labels':{}}}",
                "[{'op':'add','path':'/metadata/labels/app.kubernetes.io~1name','value':'x'},"
                        + "{'op':'add','path':'/metadata/labels/a~0b','value':'y'}]");
        assertThat(out.at("/metadata/labels")).isEqualTo(json("{'app.kubernetes.io/name':'x','a~b':'y'}"));
    }

    @Test
    void removeDeletesAMember() {
        assertThat(patch("{'a':1,'b':2}", "[{'op':'remove','path':'/a'}]")).isEqualTo(json("{'b':2}"));
    }

    @Test
    void removeOfAMissingKeyIsInvalidWithTheGenericMessage() {
        assertThatThrownBy(() -> patch("{'a':1}", "[{'op':'remove','path':'/x'}]"))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.reason()).isEqualTo("Invalid");
                    assertThat(e.getMessage())
                            .isEqualTo("the server rejected our request due to an error in our request");
                    assertThat(e.detail()).contains("Unable to remove nonexistent key: x");
                });
    }

    @Test
    void removeUnderAMissingParentIsInvalid() {
        assertThatThrownBy(() -> patch("{'a':1}", "[{'op':'remove','path':'/x/y'}]"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.detail()).contains("doc is missing path"));
    }

    @Test
    void replaceOfAMissingObjectKeyAddsItLikeEvanphxV4() {
        assertThat(patch("{'a':1}", "[{'op':'replace','path':'/b','value':2}]")).isEqualTo(json("{'a':1,'b':2}"));
    }

    @Test
    void replaceOfAMissingIndexIsInvalid() {
        assertThatThrownBy(() -> patch("{'l':[]}", "[{'op':'replace','path':'/l/0','value':2}]"))
                .isInstanceOf(PatchException.class);
    }

    @Test
    void moveRelocatesAValue() {
        assertThat(patch("{'a':{'b':1}}", "[{'op':'move','from':'/a/b','path':'/c'}]"))
                .isEqualTo(json("{'a':{},'c':1}"));
    }

    @Test
    void copyDuplicatesAValue() {
        assertThat(patch("{'a':[1]}", "[{'op':'copy','from':'/a','path':'/b'}]"))
                .isEqualTo(json("{'a':[1],'b':[1]}"));
    }

    @Test
    void copyFromAMissingKeyCopiesNull() {
        assertThat(patch("{}", "[{'op':'copy','from':'/x','path':'/b'}]")).isEqualTo(json("{'b':null}"));
    }

    @Test
    void testPassesOnEqualValue() {
        assertThat(patch("{'a':{'b':[1,'x']}}", "[{'op':'test','path':'/a','value':{'b':[1,'x']}}]"))
                .isEqualTo(json("{'a':{'b':[1,'x']}}"));
    }

    @Test
    void failingTestIsA422() {
        assertThatThrownBy(() -> patch("{'a':1}", "[{'op':'test','path':'/a','value':2}]"))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.detail()).contains("testing value /a failed");
                });
    }

    @Test
    void testOfAMissingKeyAgainstNullPasses() {
        assertThat(patch("{'a':1}", "[{'op':'test','path':'/x','value':null}]")).isEqualTo(json("{'a':1}"));
    }

    @Test
    void unknownOperationIsA422() {
        assertThatThrownBy(() -> patch("{}", "[{'op':'frobnicate','path':'/a'}]"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.detail()).isEqualTo("Unexpected kind: frobnicate"));
    }

    @Test
    void nonArrayPatchIsABadRequest() {
        assertThatThrownBy(() -> patch("{}", "{'op':'add'}"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.code()).isEqualTo(400));
    }

    @Test
    void syntaxErrorIsABadRequest() {
        assertThatThrownBy(() -> JsonPatch.apply(json("{}"), "[{"))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.reason()).isEqualTo("BadRequest"));
    }

    @Test
    void moreThanTenThousandOperationsIsTooLarge() {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i <= JsonPatch.MAX_OPERATIONS; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a\",\"value\":1}");
        }
        assertThatThrownBy(
                        () -> JsonPatch.apply(json("{'a':1}"), ops.append("]").toString()))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(413);
                    assertThat(e.getMessage())
                            .isEqualTo(
                                    "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001");
                });
    }

    @Test
    void theInputDocumentIsNotModified() {
        JsonNode doc = json("{'a':{'b':1}}");
        JsonPatch.apply(doc, "[{\"op\":\"remove\",\"path\":\"/a/b\"}]");
        assertThat(doc).isEqualTo(json("{'a':{'b':1}}"));
    }

    @Test
    void failedPatchAppliesNothing() {
        JsonNode doc = json("{'a':1}");
        assertThatThrownBy(() -> JsonPatch.apply(
                        doc, "[{\"op\":\"remove\",\"path\":\"/a\"},{\"op\":\"remove\",\"path\":\"/a\"}]"))
                .isInstanceOf(PatchException.class);
        assertThat(doc).isEqualTo(json("{'a':1}"));
    }

    @Property
    void addThenRemoveRestoresTheDocument(
            @ForAll @AlphaChars @StringLength(min = 1, max = 8) String key, @ForAll int value) {
        JsonNode doc = json("{'x':{'y':[1,2]}}");
        String pointer = "/x/" + key.replace("~", "~0").replace("/", "~1");
        if (doc.get("x").has(key)) {
            return;
        }
        JsonNode added =
                JsonPatch.apply(doc, "[{\"op\":\"add\",\"path\":\"" + pointer + "\",\"value\":" + value + "}]");
        assertThat(added.get("x").get(key).intValue()).isEqualTo(value);
        assertThat(JsonPatch.apply(added, "[{\"op\":\"remove\",\"path\":\"" + pointer + "\"}]"))
                .isEqualTo(doc);
    }

    @Property
    void moveThereAndBackRestoresTheDocument(@ForAll @AlphaChars @StringLength(min = 1, max = 8) String key) {
        JsonNode doc = json("{'a':{'v':[1,{'k':'s'}]},'b':{}}");
        JsonNode moved = JsonPatch.apply(doc, "[{\"op\":\"move\",\"from\":\"/a/v\",\"path\":\"/b/" + key + "\"}]");
        assertThat(JsonPatch.apply(moved, "[{\"op\":\"move\",\"from\":\"/b/" + key + "\",\"path\":\"/a/v\"}]"))
                .isEqualTo(doc);
    }
}
