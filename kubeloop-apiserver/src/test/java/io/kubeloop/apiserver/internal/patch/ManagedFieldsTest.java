package io.kubeloop.apiserver.internal.patch;

import static io.kubeloop.apiserver.internal.patch.JsonPatchTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.ManagedFieldsEntry;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ManagedFieldsTest {

    static final StrategicMergeSchema CM =
            StrategicMergeSchemas.forKind("v1", "ConfigMap").orElseThrow();
    static final StrategicMergeSchema DEPLOYMENT =
            StrategicMergeSchemas.forKind("apps/v1", "Deployment").orElseThrow();
    static final Instant T0 = Instant.parse("2024-01-02T03:04:05Z");
    static final Instant T1 = Instant.parse("2024-01-02T04:00:00Z");

    static ManagedObject write(JsonNode old, String updated, String manager, Instant now) {
        return ManagedFields.updateForWrite(old, json(updated), manager, "", "v1", now, CM, FieldSet.EMPTY);
    }

    @Test
    void createGivesTheCreatorAnUpdateEntryForEveryField() {
        ManagedObject out = write(null, "{'metadata':{'name':'c','uid':'u'},'data':{'a':'1'}}", "kubectl-create", T0);
        ManagedFieldsEntry e = out.managedFields().getFirst();
        assertThat(e.operation()).isEqualTo("Update");
        assertThat(e.apiVersion()).isEqualTo("v1");
        assertThat(e.fieldsV1()).isEqualTo(json("{'f:data':{'.':{},'f:a':{}}}"));
    }

    @Test
    void nonPointerStructsGetNoDotEntry() {
        ManagedObject out = ManagedFields.updateForWrite(
                null,
                json("{'metadata':{'name':'d','labels':{'app':'x'}},"
                        + "'spec':{'replicas':1,'template':{'spec':{'containers':[{'name':'w','image':'i'}]}}}}"),
                "kubectl-create",
                "",
                "apps/v1",
                T0,
                DEPLOYMENT,
                FieldSet.EMPTY);
        assertThat(out.managedFields().getFirst().fieldsV1())
                .isEqualTo(JsonPatchTest.json(
                        "{'f:metadata':{'f:labels':{'.':{},'f:app':{}}},'f:spec':{'f:replicas':{},'f:template':{'f:spec':"
                                + "{'f:containers':{'k:{\\'name\\':\\'w\\'}':{'.':{},'f:image':{},'f:name':{}}}}}}}"
                                        .replace("\\'", "\\\"")));
    }

    @Test
    void anotherWriterTakesTheFieldsItChanges() {
        JsonNode created = write(null, "{'metadata':{'name':'c'},'data':{'a':'1','b':'2'}}", "creator", T0)
                .object();
        ManagedObject out = write(created, "{'metadata':{'name':'c'},'data':{'a':'9','b':'2'}}", "editor", T1);
        assertThat(out.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly("creator", "editor");
        assertThat(out.managedFields().get(0).fieldsV1()).isEqualTo(json("{'f:data':{'.':{},'f:b':{}}}"));
        assertThat(out.managedFields().get(1).fieldsV1()).isEqualTo(json("{'f:data':{'f:a':{}}}"));
    }

    @Test
    void entriesLeftEmptyAreDropped() {
        JsonNode created = write(null, "{'metadata':{'name':'c'},'immutable':false}", "creator", T0)
                .object();
        ManagedObject out = write(created, "{'metadata':{'name':'c'},'immutable':true}", "editor", T1);
        assertThat(out.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly("editor");
    }

    @Test
    void aWriteThatChangesNothingKeepsTheEntryTime() {
        JsonNode created = write(null, "{'metadata':{'name':'c'},'data':{'a':'1'}}", "creator", T0)
                .object();
        ManagedObject out = write(created, "{'metadata':{'name':'c'},'data':{'a':'1'}}", "creator", T1);
        assertThat(out.managedFields().getFirst().time()).isEqualTo(T0);
    }

    @Test
    void storedEntriesAreKeptWhenTheClientSendsNone() {
        JsonNode created = write(null, "{'metadata':{'name':'c'},'data':{'a':'1'}}", "creator", T0)
                .object();
        ManagedObject out = write(created, "{'metadata':{'name':'c'},'data':{'a':'1','b':'2'}}", "editor", T1);
        assertThat(out.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly("creator", "editor");
    }

    @Test
    void moreThanTenUpdatersFoldIntoAncientChanges() {
        JsonNode obj = write(null, "{'metadata':{'name':'c'},'data':{'k0':'v'}}", "m0", T0)
                .object();
        for (int i = 1; i <= 11; i++) {
            String data = "{'metadata':{'name':'c'},'data':{"
                    + String.join(
                            ",",
                            IntStream.rangeClosed(0, i)
                                    .mapToObj(j -> "'k" + j + "':'v'")
                                    .toList())
                    + "}}";
            obj = write(obj, data, "m" + i, T0.plusSeconds(i)).object();
        }
        ManagedObject out = write(obj, "{'metadata':{'name':'c'},'data':{'k0':'v'}}", "m0", T0);
        assertThat(out.managedFields().size()).isLessThanOrEqualTo(ManagedFields.MAX_UPDATE_MANAGERS);
        assertThat(out.managedFields()).extracting(ManagedFieldsEntry::manager).contains(ManagedFields.ANCIENT_CHANGES);
    }

    @Test
    void aWriteLeavesTheOldAndNewObjectsAsTheyWere() {
        JsonNode created = write(null, "{'metadata':{'name':'c'},'data':{'a':'1'}}", "creator", T0)
                .object();
        JsonNode updated = json("{'metadata':{'name':'c','labels':{'x':'y'}},'data':{'a':'2'}}");
        JsonNode createdBefore = created.deepCopy();
        JsonNode updatedBefore = updated.deepCopy();
        ManagedFields.updateForWrite(created, updated, "editor", "", "v1", T1, CM, FieldSet.EMPTY);
        assertThat(created).isEqualTo(createdBefore);
        assertThat(updated).isEqualTo(updatedBefore);
    }

    @Test
    void aMemberSharedByTheOldAndNewObjectIsUnchanged() {
        JsonNode created = write(null, "{'metadata':{'name':'c'},'data':{'a':'1'},'immutable':false}", "creator", T0)
                .object();
        ObjectNode updated = ((ObjectNode) created).deepCopy();
        updated.set("data", created.get("data"));
        updated.put("immutable", true);
        ManagedObject out = ManagedFields.updateForWrite(created, updated, "editor", "", "v1", T1, CM, FieldSet.EMPTY);
        assertThat(out.managedFields()).extracting(ManagedFieldsEntry::manager).containsExactly("creator", "editor");
        assertThat(out.managedFields().get(0).fieldsV1()).isEqualTo(json("{'f:data':{'.':{},'f:a':{}}}"));
        assertThat(out.managedFields().get(1).fieldsV1()).isEqualTo(json("{'f:immutable':{}}"));
    }

    @Test
    void anIntegerBecomingAFloatIsAChangeButReorderedKeysAreNot() {
        JsonNode created = ManagedFields.updateForWrite(
                        null,
                        json("{'metadata':{'name':'d'},'spec':{'replicas':1,'paused':false}}"),
                        "creator",
                        "",
                        "apps/v1",
                        T0,
                        DEPLOYMENT,
                        FieldSet.EMPTY)
                .object();
        ManagedObject reordered = ManagedFields.updateForWrite(
                created,
                json("{'metadata':{'name':'d'},'spec':{'paused':false,'replicas':1}}"),
                "editor",
                "",
                "apps/v1",
                T1,
                DEPLOYMENT,
                FieldSet.EMPTY);
        assertThat(reordered.managedFields())
                .extracting(ManagedFieldsEntry::manager)
                .containsExactly("creator");
        ManagedObject floated = ManagedFields.updateForWrite(
                created,
                json("{'metadata':{'name':'d'},'spec':{'replicas':1.0,'paused':false}}"),
                "editor",
                "",
                "apps/v1",
                T1,
                DEPLOYMENT,
                FieldSet.EMPTY);
        assertThat(floated.managedFields().get(1).fieldsV1()).isEqualTo(json("{'f:spec':{'f:replicas':{}}}"));
    }
}
