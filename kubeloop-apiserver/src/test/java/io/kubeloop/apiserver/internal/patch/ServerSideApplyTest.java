package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.JsonPatchTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.ManagedFieldsEntry;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ServerSideApplyTest {

    static final StrategicMergeSchema DEPLOYMENT =
            StrategicMergeSchemas.forKind("apps/v1", "Deployment").orElseThrow();
    static final Instant T0 = Instant.parse("2024-01-02T03:04:05.678Z");
    static final Instant T1 = Instant.parse("2024-01-02T04:00:00Z");

    static final String CONFIG = """
            {'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'}},
             'spec':{'replicas':2,'selector':{'matchLabels':{'app':'web'}},
              'template':{'metadata':{'labels':{'app':'web'}},'spec':{'containers':[{'name':'web','image':'nginx'}]}}}}""";

    static ManagedObject apply(JsonNode live, String config, String manager, boolean force, Instant now) {
        return ServerSideApply.apply(live, json(config), manager, force, "apps/v1", now, DEPLOYMENT);
    }

    @Test
    void applyOnAMissingObjectCreatesItWithAnApplyEntry() {
        ManagedObject out = apply(null, CONFIG, "kubectl", false, T0);
        ManagedFieldsEntry e = out.managedFields().getFirst();
        assertThat(e.manager()).isEqualTo("kubectl");
        assertThat(e.operation()).isEqualTo("Apply");
        assertThat(e.apiVersion()).isEqualTo("apps/v1");
        assertThat(e.time()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(e.fieldsV1()
                        .at("/f:spec/f:template/f:spec/f:containers/k:{\"name\":\"web\"}/f:image")
                        .isObject())
                .isTrue();
        assertThat(out.object().at("/spec/replicas").intValue()).isEqualTo(2);
    }

    @Test
    void managedFieldsAreWrittenIntoTheObjectWithRfc3339Time() {
        ManagedObject out = apply(null, CONFIG, "kubectl", false, T0);
        JsonNode mf = out.object().at("/metadata/managedFields/0");
        assertThat(mf.get("time").asString()).isEqualTo("2024-01-02T03:04:05Z");
        assertThat(mf.get("fieldsType").asString()).isEqualTo("FieldsV1");
    }

    @Test
    void metadataNameIsNeverOwned() {
        ManagedObject out = apply(null, CONFIG, "kubectl", false, T0);
        assertThat(out.managedFields()
                        .getFirst()
                        .fieldsV1()
                        .at("/f:metadata/f:name")
                        .isMissingNode())
                .isTrue();
    }

    @Test
    void reapplyingTheSameConfigChangesNothing() {
        ManagedObject first = apply(null, CONFIG, "kubectl", false, T0);
        ManagedObject second = apply(first.object(), CONFIG, "kubectl", false, T1);
        assertThat(second.object()).isEqualTo(first.object());
    }

    @Test
    void fieldsDroppedFromTheConfigAreRemoved() {
        ManagedObject first = apply(null, CONFIG, "kubectl", false, T0);
        ManagedObject second = apply(
                first.object(),
                CONFIG.replace(",'labels':{'app':'web'}},\n 'spec'", "},\n 'spec'"),
                "kubectl",
                false,
                T1);
        assertThat(second.object().at("/metadata/labels").isMissingNode()).isTrue();
    }

    @Test
    void fieldsDroppedButCoOwnedStay() {
        ManagedObject first = apply(null, CONFIG, "kubectl", false, T0);
        ManagedObject other = apply(
                first.object(),
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'}}}",
                "other",
                false,
                T0);
        ManagedObject second = apply(
                other.object(),
                CONFIG.replace(",'labels':{'app':'web'}},\n 'spec'", "},\n 'spec'"),
                "kubectl",
                false,
                T1);
        assertThat(second.object().at("/metadata/labels/app").asString()).isEqualTo("web");
    }

    @Test
    void changingAFieldOwnedByAnUpdaterIsAConflict() {
        JsonNode live = ManagedFields.updateForWrite(
                        null, json(CONFIG), "kubectl-client-side-apply", "", "apps/v1", T0, DEPLOYMENT, FieldSet.EMPTY)
                .object();
        assertThatThrownBy(() -> apply(live, CONFIG.replace("'replicas':2", "'replicas':3"), "kubectl", false, T1))
                .isInstanceOfSatisfying(PatchException.class, e -> {
                    assertThat(e.code()).isEqualTo(409);
                    assertThat(e.reason()).isEqualTo("Conflict");
                    assertThat(e.getMessage())
                            .isEqualTo(
                                    "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas");
                    assertThat(e.causes()).singleElement().satisfies(c -> {
                        assertThat(c.reason()).isEqualTo("FieldManagerConflict");
                        assertThat(c.field()).isEqualTo(".spec.replicas");
                        assertThat(c.message()).isEqualTo("conflict with \"kubectl-client-side-apply\" using apps/v1");
                    });
                });
    }

    @Test
    void applyingTheSameValueSharesOwnershipWithoutConflict() {
        JsonNode live = ManagedFields.updateForWrite(
                        null, json(CONFIG), "creator", "", "apps/v1", T0, DEPLOYMENT, FieldSet.EMPTY)
                .object();
        ManagedObject out = apply(live, CONFIG, "kubectl", false, T1);
        assertThat(out.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly("kubectl", "creator");
    }

    @Test
    void forceMovesOwnershipOfConflictingFields() {
        JsonNode live = ManagedFields.updateForWrite(
                        null, json(CONFIG), "creator", "", "apps/v1", T0, DEPLOYMENT, FieldSet.EMPTY)
                .object();
        ManagedObject out = apply(live, CONFIG.replace("'replicas':2", "'replicas':3"), "kubectl", true, T1);
        assertThat(out.object().at("/spec/replicas").intValue()).isEqualTo(3);
        ManagedFieldsEntry creator = out.managedFields().stream()
                .filter(e -> e.manager().equals("creator"))
                .findFirst()
                .orElseThrow();
        assertThat(creator.fieldsV1().at("/f:spec/f:replicas").isMissingNode()).isTrue();
    }

    @Test
    void multipleConflictsAreListedPerManager() {
        JsonNode live = ManagedFields.updateForWrite(
                        null, json(CONFIG), "creator", "", "apps/v1", T0, DEPLOYMENT, FieldSet.EMPTY)
                .object();
        String changed = CONFIG.replace("'replicas':2", "'replicas':3").replace("'image':'nginx'", "'image':'httpd'");
        assertThatThrownBy(() -> apply(live, changed, "kubectl", false, T1))
                .isInstanceOfSatisfying(
                        PatchException.class,
                        e -> assertThat(e.getMessage())
                                .isEqualTo("Apply failed with 2 conflicts: conflicts with \"creator\" using apps/v1:\n"
                                        + "- .spec.replicas\n- .spec.template.spec.containers[name=\"web\"].image"));
    }

    @Test
    void associativeListItemsFromOtherManagersSurvive() {
        ManagedObject first = apply(null, CONFIG, "kubectl", false, T0);
        ManagedObject other = apply(
                first.object(),
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web'},"
                        + "'spec':{'template':{'spec':{'containers':[{'name':'sidecar','image':'busybox'}]}}}}",
                "other",
                false,
                T0);
        ManagedObject again = apply(other.object(), CONFIG, "kubectl", false, T1);
        assertThat(again.object().at("/spec/template/spec/containers"))
                .isEqualTo(json("[{'name':'web','image':'nginx'},{'name':'sidecar','image':'busybox'}]"));
    }

    @Test
    void configCarryingManagedFieldsIsABadRequest() {
        assertThatThrownBy(() -> apply(null, "{'metadata':{'managedFields':[]}}", "kubectl", false, T0))
                .isInstanceOfSatisfying(
                        PatchException.class,
                        e -> assertThat(e.getMessage()).isEqualTo("metadata.managedFields must be nil"));
    }

    @Test
    void listItemWithoutItsKeyIsRejected() {
        assertThatThrownBy(() -> apply(
                        null, "{'spec':{'template':{'spec':{'containers':[{'image':'x'}]}}}}", "kubectl", false, T0))
                .isInstanceOfSatisfying(
                        PatchException.class, e -> assertThat(e.getMessage()).contains("omits key field \"name\""));
    }

    @Test
    void ignoredFieldsAreNeverOwned() {
        ManagedObject out = ServerSideApply.apply(
                null,
                json("{'spec':{'replicas':1},'status':{'replicas':1}}"),
                "kubectl",
                false,
                "apps/v1",
                "",
                T0,
                DEPLOYMENT,
                ManagedFields.resetFields("", true));
        assertThat(out.managedFields().getFirst().fieldsV1().has("f:status")).isFalse();
    }
}
