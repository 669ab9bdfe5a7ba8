package io.kubeloop.controller.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.Immutable;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** What cache reads hand out: deep copies equal to the cached object that share nothing mutable with it. */
public class CopiesTest {

    /** A custom resource as users write them: a public record with nested records, collections and a tree. */
    public record Thing(
            String apiVersion,
            String kind,
            ObjectMeta metadata,
            Spec spec,
            Map<String, List<String>> tags,
            ObjectNode extra,
            Deployment embedded) {}

    public record Spec(Integer replicas, List<Part> parts) {}

    public record Part(String name, Instant since) {}

    private record Hidden(String name, List<String> items) {}

    private static Thing thing() {
        ObjectNode fields = KubeJson.mapper().createObjectNode();
        fields.putObject("f:spec").putObject("f:replicas");
        ObjectMeta meta = new ObjectMeta(
                "a",
                null,
                "ns",
                "uid-1",
                "7",
                1L,
                Instant.parse("2026-01-01T00:00:00Z"),
                null,
                null,
                new LinkedHashMap<>(Map.of("app", "x")),
                null,
                new ArrayList<>(List.of(new OwnerReference("v1", "ConfigMap", "owner", "uid-0", true, true))),
                null,
                new ArrayList<>(List.of(new ManagedFieldsEntry(
                        "m", "Update", "v1", Instant.parse("2026-01-01T00:00:00Z"), "FieldsV1", fields, null))),
                null);
        ObjectNode extra = KubeJson.mapper().createObjectNode();
        extra.putArray("list").add(1).add(2);
        Deployment embedded = new DeploymentBuilder()
                .withNewMetadata()
                .withName("d")
                .addToLabels("l", "v")
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .endSpec()
                .build();
        Map<String, List<String>> tags = new LinkedHashMap<>();
        tags.put("t", new ArrayList<>(List.of("one", "two")));
        return new Thing(
                "example.com/v1",
                "Thing",
                meta,
                new Spec(3, new ArrayList<>(List.of(new Part("p", Instant.EPOCH)))),
                tags,
                extra,
                embedded);
    }

    @Test
    void aRecordCopyEqualsTheOriginalAndSharesNoMutablePart() {
        Thing original = thing();
        Thing expected = thing();
        Thing copy = new Copies().copier(Thing.class).apply(original);

        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        // ObjectMeta is immutable (its maps, lists and field sets too): shared, not copied
        assertThat(copy.metadata()).isSameAs(original.metadata());
        assertThatThrownBy(() -> copy.metadata().labels().put("app", "changed"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> copy.metadata().ownerReferences().clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() ->
                        ((ObjectNode) copy.metadata().managedFields().getFirst().fieldsV1()).removeAll())
                .isInstanceOf(UnsupportedOperationException.class);
        copy.spec().parts().add(new Part("q", Instant.EPOCH));
        copy.tags().get("t").add("three");
        copy.extra().withArray("list").add(3);
        copy.embedded().getSpec().setReplicas(9);
        copy.embedded().getMetadata().getLabels().put("l", "changed");

        assertThat(original).isEqualTo(expected);
    }

    private static Deployment deployment() {
        Deployment d = new DeploymentBuilder()
                .withNewMetadata()
                .withName("d")
                .addToLabels("l", "v")
                .addNewManagedField()
                .withManager("m")
                .withNewFieldsV1()
                .addToAdditionalProperties("f:spec", Map.of("f:replicas", Map.of()))
                .endFieldsV1()
                .endManagedField()
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .withNewStrategy()
                .withNewRollingUpdate()
                .withMaxSurge(new IntOrString("25%"))
                .withMaxUnavailable(new IntOrString(1))
                .endRollingUpdate()
                .endStrategy()
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToLimits("cpu", new Quantity("500m"))
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        d.setAdditionalProperty("unknownField", new LinkedHashMap<>(Map.of("k", "v")));
        return d;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFabric8ModelIsCopiedIntoAnEqualObjectThatSharesNoMutablePart() {
        Deployment original = deployment();
        Deployment copy = new Copies().copier(Deployment.class).apply(original);

        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        assertThat(KubeJson.mapper().writeValueAsString(copy))
                .isEqualTo(KubeJson.mapper().writeValueAsString(original));
        copy.getMetadata().getLabels().put("l", "changed");
        copy.getMetadata()
                .getManagedFields()
                .getFirst()
                .getFieldsV1()
                .getAdditionalProperties()
                .clear();
        copy.getSpec().getStrategy().getRollingUpdate().setMaxSurge(new IntOrString(3));
        copy.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst()
                .getResources()
                .getLimits()
                .clear();
        ((Map<String, Object>) copy.getAdditionalProperties().get("unknownField")).put("k", "changed");

        assertThat(original).isEqualTo(deployment());
    }

    @Test
    void aRecordWhoseConstructorIsNotPublicIsCopiedThroughJackson() {
        Hidden original = new Hidden("h", new ArrayList<>(List.of("x")));
        Hidden copy = new Copies().copier(Hidden.class).apply(original);

        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        copy.items().add("y");
        assertThat(original.items()).containsExactly("x");
    }

    @Test
    void dynamicObjectsAreImmutableAndHandedOutAsTheyAre() {
        DynamicObject d = DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("ns", "c"));
        assertThat(new Copies().copier(DynamicObject.class).apply(d)).isSameAs(d);
    }

    /** A deeply immutable record, as kubeloop's models of the built-in kinds are. */
    @Immutable
    public record Frozen(String name, List<String> items) {
        public Frozen {
            items = io.kubeloop.api.json.Frozen.list(items);
        }
    }

    public record Holder(Frozen frozen, List<String> tags) {}

    @Test
    void immutableTypesAreHandedOutAsTheyAreAlsoInsideOtherRecords() {
        Frozen frozen = new Frozen("a", List.of("x"));
        assertThat(new Copies().copier(Frozen.class).apply(frozen)).isSameAs(frozen);

        Holder holder = new Holder(frozen, new ArrayList<>(List.of("t")));
        Holder copy = new Copies().copier(Holder.class).apply(holder);
        assertThat(copy).isNotSameAs(holder).isEqualTo(holder);
        assertThat(copy.frozen()).isSameAs(frozen);
        assertThat(copy.tags()).isNotSameAs(holder.tags());
    }

    public enum Phase {
        PENDING,
        READY
    }

    /** A record of immutable parts only, as the sample's Foo: no annotation needed. */
    public record Plain(String name, ObjectMeta metadata, Inner inner, Phase phase, Instant at, int count) {}

    public record Inner(Integer replicas, Frozen frozen) {}

    /** Immutable parts and a reference to its own type. */
    public record Chain(String name, Chain next) {}

    /** One mutable part deep inside makes the whole copied. */
    public record Outer(String name, Spec spec) {}

    @Test
    void aRecordOfImmutablePartsIsHandedOutAsItIsWithoutAnAnnotation() {
        Plain plain = new Plain(
                "p",
                ObjectMeta.of("ns", "p"),
                new Inner(2, new Frozen("f", List.of("x"))),
                Phase.READY,
                Instant.EPOCH,
                3);
        Chain chain = new Chain("a", new Chain("b", null));

        assertThat(new Copies().copier(Plain.class).apply(plain)).isSameAs(plain);
        assertThat(new Copies().copier(Chain.class).apply(chain)).isSameAs(chain);
        assertThat(new Copies().copy(plain))
                .as("also as a value inside another")
                .isSameAs(plain);
    }

    @Test
    void aRecordWithAMutablePartAnywhereInsideIsCopied() {
        Outer outer = new Outer("o", new Spec(1, new ArrayList<>(List.of(new Part("p", Instant.EPOCH)))));

        Outer copy = new Copies().copier(Outer.class).apply(outer);

        assertThat(copy).isEqualTo(outer).isNotSameAs(outer);
        assertThat(copy.spec().parts()).isNotSameAs(outer.spec().parts());
    }
}
