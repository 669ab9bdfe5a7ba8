package io.kubeloop.cache;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A ReflectorStore that records every call (and keeps a real store behind). */
final class RecordingStore implements ReflectorStore<DynamicObject> {

    final List<String> calls = new CopyOnWriteArrayList<>();
    final Store<DynamicObject> store = Store.create(KeyFunction.metaNamespace());

    @Override
    public void add(DynamicObject object) {
        calls.add("add " + ObjectAccess.name(object));
        store.add(object);
    }

    @Override
    public void update(DynamicObject object) {
        calls.add("update " + ObjectAccess.name(object));
        store.update(object);
    }

    @Override
    public void delete(DynamicObject object) {
        calls.add("delete " + ObjectAccess.name(object));
        store.delete(object);
    }

    @Override
    public void replace(List<DynamicObject> objects, String resourceVersion) {
        List<String> names = new ArrayList<>();
        for (DynamicObject o : objects) {
            names.add(ObjectAccess.name(o));
        }
        names.sort(null);
        calls.add("replace " + names + " @" + resourceVersion);
        store.replace(objects, resourceVersion);
    }

    @Override
    public void resync() {
        calls.add("resync");
    }

    long count(String prefix) {
        return calls.stream().filter(c -> c.startsWith(prefix)).count();
    }
}
