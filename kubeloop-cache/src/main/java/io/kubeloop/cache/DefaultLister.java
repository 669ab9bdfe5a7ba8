package io.kubeloop.cache;

import io.kubeloop.api.GroupResource;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.selector.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The {@link Lister} and {@link NamespaceLister}: {@code namespace} "" means all namespaces / cluster scope. */
final class DefaultLister<T> implements Lister<T>, NamespaceLister<T> {

    private final Indexer<T> indexer;
    private final GroupResource resource;
    private final String namespace;

    DefaultLister(Indexer<T> indexer, GroupResource resource, String namespace) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
        this.resource = Objects.requireNonNull(resource, "resource");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
    }

    @Override
    public List<T> list(LabelSelector selector) {
        Objects.requireNonNull(selector, "selector");
        if (selector.isNothing()) {
            return new ArrayList<>();
        }
        List<T> candidates;
        boolean filterNamespace = false;
        if (namespace.isEmpty()) {
            candidates = indexer.list();
        } else if (indexer.indexers().containsKey(Indexer.NAMESPACE_INDEX)) {
            candidates = indexer.byIndex(Indexer.NAMESPACE_INDEX, namespace);
        } else {
            candidates = indexer.list();
            filterNamespace = true;
        }
        if (selector.isEverything() && !filterNamespace) {
            return candidates;
        }
        List<T> out = new ArrayList<>();
        for (T o : candidates) {
            if (filterNamespace && !namespace.equals(ObjectAccess.namespace(o))) {
                continue;
            }
            Map<String, String> labels = ObjectAccess.labels(o);
            if (selector.isEverything() || selector.matches(labels)) {
                out.add(o);
            }
        }
        return out;
    }

    @Override
    public List<T> list() {
        return list(LabelSelector.everything());
    }

    @Override
    public T get(String name) {
        Objects.requireNonNull(name, "name");
        return indexer.getByKey(ObjectKey.of(namespace, name)).orElseThrow(() -> notFound(name));
    }

    private NotFoundException notFound(String name) {
        String what = resource.group().isEmpty() ? resource.resource() : resource.resource() + "." + resource.group();
        return new NotFoundException(new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                what + " \"" + name + "\" not found",
                "NotFound",
                new Status.Details(name, resource.group(), resource.resource(), null, null, null),
                404));
    }

    @Override
    public NamespaceLister<T> namespace(String ns) {
        Objects.requireNonNull(ns, "namespace");
        return new DefaultLister<>(indexer, resource, ns);
    }
}
