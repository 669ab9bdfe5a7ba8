package io.kubeloop.cache;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Records notifications as text; can be made to block in every call until released. */
class RecordingHandler implements ResourceEventHandler<DynamicObject> {

    final List<String> events = new CopyOnWriteArrayList<>();
    volatile CountDownLatch gate;
    final CountDownLatch entered = new CountDownLatch(1);

    RecordingHandler blocked() {
        gate = new CountDownLatch(1);
        return this;
    }

    void release() {
        gate.countDown();
    }

    private void pass() {
        entered.countDown();
        CountDownLatch g = gate;
        if (g != null) {
            try {
                g.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static String id(DynamicObject o) {
        return ObjectAccess.name(o) + "@" + ObjectAccess.resourceVersion(o);
    }

    @Override
    public void onAdd(DynamicObject object, boolean isInInitialList) {
        pass();
        events.add("add " + id(object) + (isInInitialList ? " initial" : ""));
    }

    @Override
    public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
        pass();
        events.add("update " + id(oldObject) + "->" + id(newObject));
    }

    @Override
    public void onDelete(DynamicObject object, boolean finalStateUnknown) {
        pass();
        events.add("delete " + id(object) + (finalStateUnknown ? " tombstone" : ""));
    }
}
