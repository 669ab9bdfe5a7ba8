package io.kubeloop.controller.internal.client;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.client.ListOption;
import io.kubeloop.controller.client.Reader;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Reader} that asks the API server every time: a GET per get, a paged LIST per list
 * (controller-runtime's {@code mgr.GetAPIReader()}). Every object returned is freshly decoded.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class ApiReader implements Reader {

    private final Resources resources;

    ApiReader(Resources resources) {
        this.resources = Objects.requireNonNull(resources, "resources");
    }

    @Override
    public <T> T get(Class<T> type, ObjectKey key) {
        return get(resources.forType(type), key);
    }

    @Override
    public DynamicObject get(GroupVersionKind kind, ObjectKey key) {
        return get(resources.forKind(kind), key);
    }

    @Override
    public <T> List<T> list(Class<T> type, ListOption... options) {
        return list(resources.forType(type), options);
    }

    @Override
    public List<DynamicObject> list(GroupVersionKind kind, ListOption... options) {
        return list(resources.forKind(kind), options);
    }

    @Override
    public PartialObjectMetadata getMetadata(Class<?> type, ObjectKey key) {
        return get(resources.forMetadata(type), key).withKind(resources.kindOf(type));
    }

    @Override
    public List<PartialObjectMetadata> listMetadata(Class<?> type, ListOption... options) {
        GroupVersionKind kind = resources.kindOf(type);
        return list(resources.forMetadata(type), options).stream()
                .map(m -> m.withKind(kind))
                .toList();
    }

    private static <T> T get(ResourceClient<T> rc, ObjectKey key) {
        return Resources.in(rc, key.namespace(), key.name()).get(key.name());
    }

    private static <T> List<T> list(ResourceClient<T> rc, ListOption... options) {
        Selection selection = Selection.of(options);
        ResourceClient<T> scoped = rc.namespaced() && selection.namespace() != null
                ? rc.inNamespace(selection.namespace())
                : rc.namespaced() ? rc.inAnyNamespace() : rc;
        return scoped.listAll(selection.toListOptions()).items();
    }

    /**
     * The list options of a call, each at most once.
     *
     * @param namespace the namespace, or null for all
     * @param labels the label selector, or null
     * @param field the field requirement, or null
     */
    record Selection(String namespace, LabelSelector labels, ListOption.MatchingField field) {

        static Selection of(ListOption... options) {
            String namespace = null;
            LabelSelector labels = null;
            ListOption.MatchingField field = null;
            for (ListOption option : options) {
                switch (option) {
                    case ListOption.InNamespace n -> namespace = once(namespace, n.namespace(), "inNamespace");
                    case ListOption.MatchingLabels l -> labels = once(labels, l.selector(), "matchingLabels");
                    case ListOption.MatchingField f -> field = once(field, f, "matchingField");
                }
            }
            return new Selection(namespace, labels, field);
        }

        private static <V> V once(V current, V next, String option) {
            if (current != null) {
                throw new IllegalArgumentException(option + " was given twice");
            }
            return next;
        }

        /** The selectors as the API server takes them. */
        ListOptions toListOptions() {
            ListOptions.Builder b = ListOptions.builder();
            if (labels != null) {
                b.labelSelector(labels);
            }
            if (field != null) {
                b.fieldSelector(field.field() + "=" + field.value());
            }
            return b.build();
        }
    }
}
