package io.kubeloop.cache.internal;

import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.cache.KeyFunction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The in-order FIFO: what differs observably from the DeltaFIFO. */
class RealFifoTest {

    /** Records what it is handed. */
    static final class Recorder implements PopProcessor<DynamicObject> {
        final List<String> seen = new ArrayList<>();
        final List<Boolean> initial = new ArrayList<>();
        RealFifo<DynamicObject> fifo;
        Boolean syncedDuringProcessing;

        @Override
        public void process(List<Delta<DynamicObject>> deltas, boolean isInInitialList) {
            for (Delta<DynamicObject> d : deltas) {
                seen.add(d.getClass().getSimpleName() + " " + ObjectAccess.name(d.object()) + "@"
                        + ObjectAccess.resourceVersion(d.object()));
            }
            initial.add(isInInitialList);
        }

        @Override
        public void replaceAll(List<DynamicObject> objects, String rv, boolean isInInitialList) {
            List<String> names = objects.stream()
                    .map(o ->
                            ObjectAccess.name(o) + ":" + ObjectAccess.labels(o).get("t"))
                    .toList();
            seen.add("ReplaceAll " + names + " @" + rv);
            initial.add(isInInitialList);
            syncedDuringProcessing = fifo.hasSynced();
        }

        @Override
        public void resyncAll() {
            seen.add("SyncAll");
        }
    }

    private static RealFifo<DynamicObject> fifo() {
        return new RealFifo<>(KeyFunction.metaNamespace(), null);
    }

    @Test
    void changesPopOneByOneInGlobalArrivalOrderAcrossKeys() {
        RealFifo<DynamicObject> f = fifo();
        Recorder r = new Recorder();
        f.add(pod("ns", "a", "1"));
        f.add(pod("ns", "b", "1"));
        f.update(pod("ns", "a", "2"));
        f.delete(pod("ns", "never-seen", "3"));
        while (f.size() > 0) {
            f.pop(r);
        }
        assertThat(r.seen).containsExactly("Added a@1", "Added b@1", "Updated a@2", "Deleted never-seen@3");
    }

    @Test
    void aRelistIsOneAtomicTransformedEntryAndSyncsOnlyAfterItWasProcessed() {
        RealFifo<DynamicObject> f = new RealFifo<>(
                KeyFunction.metaNamespace(),
                o -> o.edit(n ->
                        ((ObjectNode) n.get("metadata")).putObject("labels").put("t", "x")));
        Recorder r = new Recorder();
        r.fifo = f;
        f.replace(List.of(pod("ns", "a"), pod("ns", "b")), "9");
        f.add(pod("ns", "c", "10"));
        assertThat(f.size()).isEqualTo(2);
        assertThat(f.hasSynced()).isFalse();
        f.pop(r);
        assertThat(r.syncedDuringProcessing).isFalse();
        assertThat(f.hasSynced()).isTrue();
        f.pop(r);
        assertThat(r.seen).containsExactly("ReplaceAll [a:x, b:x] @9", "Added c@10");
        assertThat(r.initial).containsExactly(true, false);
    }

    @Test
    void resyncQueuesOneSyncAllUntilItIsPopped() {
        RealFifo<DynamicObject> f = fifo();
        Recorder r = new Recorder();
        f.resync();
        f.resync();
        assertThat(f.size()).isEqualTo(1);
        f.pop(r);
        f.resync();
        assertThat(f.size()).isEqualTo(1);
        assertThat(r.seen).containsExactly("SyncAll");
    }

    @Test
    void aClosedQueueDrainsThenReportsClosed() {
        RealFifo<DynamicObject> f = fifo();
        Recorder r = new Recorder();
        f.add(pod("ns", "a"));
        f.close();
        assertThat(f.pop(r)).isTrue();
        assertThat(f.pop(r)).isFalse();
    }
}
