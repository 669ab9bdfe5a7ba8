package io.kubeloop.controller.internal.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.client.DeleteOptions;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Scale;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.Cancellation;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.client.ListOption;
import io.kubeloop.controller.client.Reader;
import io.kubeloop.controller.client.StatusWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@link Client}: reads through a {@link Reader} (the cache), writes to the API server through
 * the kube client's resource clients. Every call first checks the cancellations guarding this view
 * and throws {@link java.util.concurrent.CancellationException} when one fired.
 *
 * <p><b>Thread safety:</b> immutable; thread-safe.
 */
final class ApiClient implements Client {

    private final Reader reads;
    private final Resources resources;
    private final List<Cancellation> guards;
    private final StatusWriter status = new Status();

    ApiClient(Reader reads, Resources resources, List<Cancellation> guards) {
        this.reads = Objects.requireNonNull(reads, "reads");
        this.resources = Objects.requireNonNull(resources, "resources");
        this.guards = List.copyOf(guards);
    }

    /** This client, also refusing every call once {@code cancellation} fired. */
    ApiClient guardedBy(Cancellation cancellation) {
        List<Cancellation> more = new ArrayList<>(guards);
        more.add(Objects.requireNonNull(cancellation, "cancellation"));
        return new ApiClient(reads, resources, more);
    }

    private void check() {
        for (Cancellation c : guards) {
            c.throwIfCancelled();
        }
    }

    @Override
    public <T> T get(Class<T> type, ObjectKey key) {
        check();
        return reads.get(type, key);
    }

    @Override
    public DynamicObject get(GroupVersionKind kind, ObjectKey key) {
        check();
        return reads.get(kind, key);
    }

    @Override
    public <T> List<T> list(Class<T> type, ListOption... options) {
        check();
        return reads.list(type, options);
    }

    @Override
    public List<DynamicObject> list(GroupVersionKind kind, ListOption... options) {
        check();
        return reads.list(kind, options);
    }

    @Override
    public PartialObjectMetadata getMetadata(Class<?> type, ObjectKey key) {
        check();
        return reads.getMetadata(type, key);
    }

    @Override
    public List<PartialObjectMetadata> listMetadata(Class<?> type, ListOption... options) {
        check();
        return reads.listMetadata(type, options);
    }

    @Override
    public <T> T create(T object, WriteOptions options) {
        check();
        return resources.forObject(object).create(object, options);
    }

    @Override
    public <T> T update(T object, WriteOptions options) {
        check();
        return resources.forObject(object).update(object, options);
    }

    @Override
    public <T> T patch(T object, PatchType type, Object body, PatchOptions options) {
        check();
        return resources.forObject(object).patch(nameOf(object), type, body, options);
    }

    @Override
    public <T> T apply(T object, PatchOptions options) {
        check();
        return resources
                .forObject(object)
                .patch(
                        nameOf(object),
                        PatchType.APPLY,
                        ApplyBodies.forObject(object, resources.kube().scheme()),
                        options);
    }

    @Override
    public void delete(Object object, DeleteOptions options) {
        check();
        resources.forObject(object).delete(nameOf(object), options);
    }

    @Override
    public void deleteAllOf(Class<?> type, ListOption... options) {
        check();
        deleteAllOf(resources.forType(type), options);
    }

    @Override
    public void deleteAllOf(GroupVersionKind kind, ListOption... options) {
        check();
        deleteAllOf(resources.forKind(kind), options);
    }

    private static void deleteAllOf(ResourceClient<?> rc, ListOption... options) {
        ApiReader.Selection selection = ApiReader.Selection.of(options);
        ResourceClient<?> scoped = Resources.in(rc, selection.namespace(), "deleteAllOf");
        scoped.deleteCollection(selection.toListOptions(), DeleteOptions.none());
    }

    @Override
    public Scale getScale(Object object) {
        check();
        return resources.forObject(object).getScale(nameOf(object));
    }

    @Override
    public Scale scale(Object object, int replicas) {
        check();
        return resources.forObject(object).scale(nameOf(object), replicas);
    }

    @Override
    public StatusWriter status() {
        return status;
    }

    private static String nameOf(Object object) {
        String name = ObjectAccess.name(object);
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(
                    "the object has no metadata.name: " + object.getClass().getSimpleName());
        }
        return name;
    }

    /** The status subresource, guarded as the client is. */
    private final class Status implements StatusWriter {

        @Override
        public <T> T update(T object, WriteOptions options) {
            check();
            return resources.forObject(object).updateStatus(object, options);
        }

        @Override
        public <T> T patch(T object, PatchType type, Object body, PatchOptions options) {
            check();
            return resources.forObject(object).patchStatus(nameOf(object), type, body, options);
        }

        @Override
        public <T> T apply(T object, PatchOptions options) {
            check();
            return resources
                    .forObject(object)
                    .patchStatus(
                            nameOf(object),
                            PatchType.APPLY,
                            ApplyBodies.forStatus(object, resources.kube().scheme()),
                            options);
        }
    }

    @Override
    public String toString() {
        return "Client[guards=" + guards + "]";
    }
}
