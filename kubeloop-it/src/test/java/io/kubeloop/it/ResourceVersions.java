package io.kubeloop.it;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.cache.ResourceEventHandler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Objects reduced to key → resourceVersion: the form in which the integration tests compare a cache,
 * a handler-fed model and the server.
 */
final class ResourceVersions {

    private ResourceVersions() {}

    /** Each object's key mapped to its resourceVersion. */
    static Map<ObjectKey, String> of(Iterable<?> objects) {
        Map<ObjectKey, String> out = new HashMap<>();
        for (Object o : objects) {
            out.put(ObjectAccess.key(o), ObjectAccess.resourceVersion(o));
        }
        return out;
    }

    /**
     * A model fed only by an informer's handler callbacks (key → resourceVersion), which also
     * records every update that went back in time (an older resourceVersion for the same uid).
     * Thread-safe: handlers may be called from the informer's thread while a test reads.
     */
    static final class HandlerModel implements ResourceEventHandler<DynamicObject> {
        final Map<ObjectKey, String> state = new ConcurrentHashMap<>();
        final List<String> backwards = new CopyOnWriteArrayList<>();

        @Override
        public void onAdd(DynamicObject o, boolean initial) {
            state.put(ObjectAccess.key(o), ObjectAccess.resourceVersion(o));
        }

        @Override
        public void onUpdate(DynamicObject old, DynamicObject o) {
            String was = ObjectAccess.resourceVersion(old);
            String now = ObjectAccess.resourceVersion(o);
            if (ObjectAccess.uid(old).equals(ObjectAccess.uid(o)) && Long.parseLong(now) < Long.parseLong(was)) {
                backwards.add(ObjectAccess.key(o) + ": " + was + " -> " + now);
            }
            state.put(ObjectAccess.key(o), now);
        }

        @Override
        public void onDelete(DynamicObject o, boolean unknown) {
            state.remove(ObjectAccess.key(o));
        }
    }
}
