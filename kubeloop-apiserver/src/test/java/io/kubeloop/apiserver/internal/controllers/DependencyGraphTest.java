package io.kubeloop.apiserver.internal.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dependency graph alone: which changes queue which uids, with recording queues. */
class DependencyGraphTest {

    private final List<String> toDelete = new ArrayList<>();
    private final List<String> toOrphan = new ArrayList<>();
    private final DependencyGraph graph = new DependencyGraph(toDelete::add, toOrphan::add);

    private static OwnerReference ref(String uid, boolean block) {
        return new OwnerReference("v1", "ConfigMap", "owner-" + uid, uid, null, block ? true : null);
    }

    private static ObjectMetadata cm(String uid, List<OwnerReference> owners, Instant deleting, String... finalizers) {
        return new ObjectMetadata(
                "v1",
                "ConfigMap",
                ObjectMeta.builder()
                        .namespace("ns")
                        .name("owner-" + uid)
                        .uid(uid)
                        .ownerReferences(owners)
                        .deletionTimestamp(deleting)
                        .finalizers(List.of(finalizers))
                        .build());
    }

    private void add(ObjectMetadata o) {
        graph.process(new DependencyGraph.Event(DependencyGraph.Type.ADD, o, null, false));
    }

    private void update(ObjectMetadata old, ObjectMetadata now) {
        graph.process(new DependencyGraph.Event(DependencyGraph.Type.UPDATE, now, old, false));
    }

    private void delete(ObjectMetadata o) {
        graph.process(new DependencyGraph.Event(DependencyGraph.Type.DELETE, o, null, false));
    }

    @Test
    void dependentOfAnUnknownOwnerCreatesAVirtualOwnerAndQueuesItForALiveLookup() {
        add(cm("dep", List.of(ref("o", true)), null));
        assertThat(toDelete).containsExactly("o");
        DependencyGraph.Snapshot owner = graph.snapshot("o").orElseThrow();
        assertThat(owner.observed()).isFalse();
        assertThat(owner.identity().namespace()).isEqualTo("ns");
        assertThat(owner.dependents()).extracting(d -> d.identity().uid()).containsExactly("dep");
        assertThat(owner.dependents().getFirst().blocking()).isTrue();
    }

    @Test
    void observingTheOwnerLaterMakesTheVirtualNodeReal() {
        add(cm("dep", List.of(ref("o", false)), null));
        add(cm("o", List.of(), null));
        assertThat(graph.snapshot("o").orElseThrow().observed()).isTrue();
        assertThat(graph.size()).isEqualTo(2);
    }

    @Test
    void deletedOwnerLeavesTheGraphAndQueuesItsDependents() {
        ObjectMetadata owner = cm("o", List.of(), null);
        add(owner);
        add(cm("d1", List.of(ref("o", false)), null));
        add(cm("d2", List.of(ref("o", true)), null));
        toDelete.clear();
        delete(owner);
        assertThat(toDelete).containsExactlyInAnyOrder("d1", "d2");
        assertThat(graph.snapshot("o")).isEmpty();
    }

    @Test
    void startingForegroundDeletionMarksTheOwnerAndQueuesItAndAllDependents() {
        ObjectMetadata owner = cm("o", List.of(), null);
        add(owner);
        add(cm("d1", List.of(ref("o", true)), null));
        toDelete.clear();
        ObjectMetadata deleting = cm("o", List.of(), Instant.now(), "foregroundDeletion");
        update(owner, deleting);
        assertThat(toDelete).containsExactlyInAnyOrder("d1", "o");
        assertThat(graph.snapshot("o").orElseThrow().deletingDependents()).isTrue();
        toDelete.clear();
        update(deleting, deleting);
        assertThat(toDelete).as("only the transition queues").isEmpty();
    }

    @Test
    void startingOrphanDeletionQueuesTheOwnerForOrphaningOnce() {
        ObjectMetadata owner = cm("o", List.of(), null);
        add(owner);
        ObjectMetadata deleting = cm("o", List.of(), Instant.now(), "orphan");
        update(owner, deleting);
        update(deleting, deleting);
        assertThat(toOrphan).containsExactly("o");
    }

    @Test
    void droppingABlockingReferenceQueuesTheOwner() {
        add(cm("o", List.of(), null));
        ObjectMetadata dep = cm("d", List.of(ref("o", true)), null);
        add(dep);
        toDelete.clear();
        update(dep, cm("d", List.of(ref("o", false)), null));
        assertThat(toDelete).containsExactly("o");
        assertThat(graph.snapshot("o").orElseThrow().dependents().getFirst().blocking())
                .isFalse();
    }

    @Test
    void deletedDependentQueuesAnOwnerThatWaitsForItsDependents() {
        ObjectMetadata owner = cm("o", List.of(), null);
        add(owner);
        ObjectMetadata dep = cm("d", List.of(ref("o", true)), null);
        add(dep);
        update(owner, cm("o", List.of(), Instant.now(), "foregroundDeletion"));
        toDelete.clear();
        delete(dep);
        assertThat(toDelete).containsExactly("o");
        assertThat(graph.snapshot("o").orElseThrow().dependents()).isEmpty();
    }

    @Test
    void removedReferenceUnlinksTheDependent() {
        add(cm("o", List.of(), null));
        ObjectMetadata dep = cm("d", List.of(ref("o", false)), null);
        add(dep);
        update(dep, cm("d", List.of(), null));
        assertThat(graph.snapshot("o").orElseThrow().dependents()).isEmpty();
    }

    @Test
    void virtualDeleteOfAnObservedObjectAtOtherCoordinatesKeepsItButQueuesItsDependents() {
        add(cm("o", List.of(), null));
        add(cm("d", List.of(ref("o", false)), null));
        toDelete.clear();
        ObjectMetadata elsewhere = new ObjectMetadata(
                "v1",
                "ConfigMap",
                ObjectMeta.builder().namespace("other").name("owner-o").uid("o").build());
        graph.process(new DependencyGraph.Event(DependencyGraph.Type.DELETE, elsewhere, null, true));
        assertThat(graph.snapshot("o")).isPresent();
        assertThat(toDelete).containsExactly("d");
    }
}
