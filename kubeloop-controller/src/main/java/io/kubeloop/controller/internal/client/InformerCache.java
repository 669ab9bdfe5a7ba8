package io.kubeloop.controller.internal.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectAccess;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.selector.LabelSelector;
import io.kubeloop.cache.IndexFunction;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.Lister;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.cache.Transforms;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.discovery.RestMapping;
import io.kubeloop.controller.CacheSyncTimeoutException;
import io.kubeloop.controller.client.ByObject;
import io.kubeloop.controller.client.Cache;
import io.kubeloop.controller.client.CacheOptions;
import io.kubeloop.controller.client.CacheScopeException;
import io.kubeloop.controller.client.ListOption;
import io.kubeloop.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The {@link Cache} over a manager's {@link InformerFactory}: per type, one informer per namespace of
 * its scope (or one over all namespaces), made and indexed on first use and started by the first
 * read (a watch registered by a controller starts with the manager).
 *
 * <p>Invariants: a type's informers, once made, are never replaced; the field indexes of a type are
 * added to every informer of the type, whenever each was made; a read returns only after every
 * informer it reads from has synced.
 *
 * <p><b>Thread safety:</b> thread-safe; the tables change under {@link #lock}; reads of the informers'
 * indexers take the indexers' own locks.
 */
public final class InformerCache implements Cache {

    /** Where a field index's values live: {@code FIELD_INDEX + field}. */
    private static final String FIELD_INDEX = "field:";
    /** The namespace part of a field-index value that holds objects of every namespace. */
    private static final String ALL_NAMESPACES = "*";

    /**
     * The informers of one type or kind.
     *
     * @param what how errors name it (resource)
     * @param namespaced whether the kind is namespaced
     * @param listers per namespace of the scope ({@code ""} when all namespaces are held), its lister
     * @param informers per namespace, its informer
     * @param copier makes the reader's copy
     */
    private record Entry<T>(
            String what,
            boolean namespaced,
            Map<String, Lister<T>> listers,
            Map<String, SharedIndexInformer<T>> informers,
            UnaryOperator<T> copier) {

        boolean allNamespaces() {
            return listers.containsKey("");
        }

        /** The lister holding {@code namespace}; the one over all namespaces when there is one. */
        Lister<T> listerFor(String namespace) {
            if (!namespaced || allNamespaces()) {
                return listers.values().iterator().next();
            }
            Lister<T> lister = listers.get(namespace);
            if (lister == null) {
                throw new CacheScopeException(what + " in namespace \"" + namespace + "\" are outside the cache's scope"
                        + " (it holds namespaces " + new TreeSet<>(listers.keySet()) + "); widen the scope in"
                        + " CacheOptions or read them with the manager's apiReader()");
            }
            return lister;
        }
    }

    private final InformerFactory informers;
    private final Resources resources;
    private final CacheOptions options;
    private final MissingKinds missingKinds;
    private final Object lock = new Object();
    /** Deep copies of what reads return. */
    private final Copies copies = new Copies();

    @GuardedBy("lock")
    private final Map<Object, Entry<?>> entries = new HashMap<>();

    /** Per type (Class or GroupVersionKind), its field indexes by index name. */
    @GuardedBy("lock")
    private final Map<Object, Map<String, IndexFunction<Object>>> indexes = new HashMap<>();

    /**
     * A cache over {@code informers}, resolving types through {@code resources}.
     *
     * @param informers the manager's informers
     * @param resources resolves types to resources
     * @param options the scope
     * @param missingKinds watches the informers it makes for kinds the server does not serve
     */
    InformerCache(InformerFactory informers, Resources resources, CacheOptions options, MissingKinds missingKinds) {
        this.informers = Objects.requireNonNull(informers, "informers");
        this.resources = Objects.requireNonNull(resources, "resources");
        this.options = Objects.requireNonNull(options, "options");
        this.missingKinds = Objects.requireNonNull(missingKinds, "missingKinds");
    }

    @Override
    public <T> T get(Class<T> type, ObjectKey key) {
        return get(typed(type), key);
    }

    @Override
    public DynamicObject get(GroupVersionKind kind, ObjectKey key) {
        return get(dynamic(kind), key);
    }

    @Override
    public <T> List<T> list(Class<T> type, ListOption... options) {
        return list(typed(type), options);
    }

    @Override
    public List<DynamicObject> list(GroupVersionKind kind, ListOption... options) {
        return list(dynamic(kind), options);
    }

    @Override
    public PartialObjectMetadata getMetadata(Class<?> type, ObjectKey key) {
        return get(metadata(type), key);
    }

    @Override
    public List<PartialObjectMetadata> listMetadata(Class<?> type, ListOption... options) {
        return list(metadata(type), options);
    }

    @Override
    public List<SharedIndexInformer<PartialObjectMetadata>> metadataInformersFor(Class<?> type) {
        return List.copyOf(metadata(type).informers().values());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> void indexField(
            Class<T> type, String field, Function<? super T, ? extends Collection<String>> extractor) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(extractor, "extractor");
        String indexName = FIELD_INDEX + field;
        IndexFunction<Object> function = object -> indexValues(object, extractor.apply((T) object));
        Entry<T> entry;
        synchronized (lock) {
            Map<String, IndexFunction<Object>> ofType = indexes.computeIfAbsent(type, t -> new LinkedHashMap<>());
            if (ofType.containsKey(indexName)) {
                throw new IllegalArgumentException(
                        "field \"" + field + "\" of " + type.getName() + " is indexed already");
            }
            ofType.put(indexName, function);
            entry = (Entry<T>) entries.get(type);
        }
        if (entry != null) {
            for (SharedIndexInformer<T> informer : entry.informers().values()) {
                informer.addIndexers(Map.of(indexName, (IndexFunction<T>) (IndexFunction<?>) function));
            }
        }
    }

    @Override
    public <T> List<SharedIndexInformer<T>> informersFor(Class<T> type) {
        return List.copyOf(typed(type).informers().values());
    }

    @Override
    public List<SharedIndexInformer<DynamicObject>> informersFor(GroupVersionKind kind) {
        return List.copyOf(dynamic(kind).informers().values());
    }

    /** The index values of one object: each value once in its namespace and once across namespaces. */
    private static List<String> indexValues(Object object, Collection<String> values) {
        if (values == null || values.isEmpty()) {
            return List.of();
        }
        String namespace = ObjectAccess.namespace(object);
        List<String> out = new ArrayList<>(values.size() * 2);
        for (String v : values) {
            if (v == null) {
                continue;
            }
            out.add(ALL_NAMESPACES + "/" + v);
            if (!namespace.isEmpty()) {
                out.add(namespace + "/" + v);
            }
        }
        return out;
    }

    private <T> T get(Entry<T> entry, ObjectKey key) {
        Lister<T> lister = entry.listerFor(key.namespace());
        informers.start();
        awaitSynced(entry);
        T found = entry.namespaced() ? lister.namespace(key.namespace()).get(key.name()) : lister.get(key.name());
        return entry.copier().apply(found);
    }

    private <T> List<T> list(Entry<T> entry, ListOption... listOptions) {
        String namespace = null;
        LabelSelector labels = null;
        ListOption.MatchingField field = null;
        for (ListOption option : listOptions) {
            switch (option) {
                case ListOption.InNamespace n -> namespace = once(namespace, n.namespace(), "inNamespace");
                case ListOption.MatchingLabels l -> labels = once(labels, l.selector(), "matchingLabels");
                case ListOption.MatchingField f -> field = once(field, f, "matchingField");
            }
        }
        if (field != null && field.field().equals("metadata.namespace")) {
            if (namespace != null && !namespace.equals(field.value())) {
                return List.of();
            }
            namespace = field.value();
            field = null;
        }
        if (!entry.namespaced()) {
            namespace = null;
        }
        Collection<String> held = namespace == null || entry.allNamespaces()
                ? entry.listers().keySet()
                : List.of(scopeKey(entry, namespace));
        String indexName = field == null || field.field().equals("metadata.name") ? null : FIELD_INDEX + field.field();
        if (indexName != null) {
            requireIndexed(entry, field.field());
        }
        String name = field != null && indexName == null ? field.value() : null;
        informers.start();
        awaitSynced(entry);
        LabelSelector selector = labels == null ? LabelSelector.everything() : labels;
        List<T> out = new ArrayList<>();
        for (String key : held) {
            if (indexName != null) {
                List<T> indexed = entry.informers()
                        .get(key)
                        .indexer()
                        .byIndex(indexName, (namespace == null ? ALL_NAMESPACES : namespace) + "/" + field.value());
                addMatching(out, indexed, labels, null, entry.copier());
            } else {
                Lister<T> lister = entry.listers().get(key);
                List<T> listed = namespace == null
                        ? lister.list(selector)
                        : lister.namespace(namespace).list(selector);
                addMatching(out, listed, null, name, entry.copier());
            }
        }
        return out;
    }

    /** The key of the lister that holds {@code namespace}, or a {@link CacheScopeException}. */
    private static String scopeKey(Entry<?> entry, String namespace) {
        entry.listerFor(namespace);
        return namespace;
    }

    private static <T> void addMatching(
            List<T> out, List<T> candidates, LabelSelector labels, String name, UnaryOperator<T> copier) {
        for (T object : candidates) {
            if (labels != null && !labels.matches(ObjectAccess.labels(object))) {
                continue;
            }
            if (name != null && !name.equals(ObjectAccess.name(object))) {
                continue;
            }
            out.add(copier.apply(object));
        }
    }

    private static <V> V once(V current, V next, String option) {
        if (current != null) {
            throw new IllegalArgumentException(option + " was given twice");
        }
        return next;
    }

    private void requireIndexed(Entry<?> entry, String field) {
        boolean indexed = entry.informers()
                .values()
                .iterator()
                .next()
                .indexer()
                .indexers()
                .containsKey(FIELD_INDEX + field);
        if (!indexed) {
            throw new IllegalArgumentException("the cache has no index for field \"" + field + "\" of " + entry.what()
                    + ": register one with cache().indexField(type, \"" + field
                    + "\", extractor) before the first read (only metadata.name and metadata.namespace need none)");
        }
    }

    /** Waits until every informer of {@code entry} has synced, for at most the options' sync timeout. */
    private void awaitSynced(Entry<?> entry) {
        Duration timeout = options.syncTimeout();
        for (SharedIndexInformer<?> informer : entry.informers().values()) {
            if (informer.hasSynced()) {
                continue;
            }
            if (!informer.waitForCacheSync(timeout)) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new CancellationException(
                            "interrupted while waiting for the cache of " + entry.what() + " to sync");
                }
                if (informer.isStopped()) {
                    throw new IllegalStateException(
                            "the cache of " + entry.what() + " has stopped (the manager closed)");
                }
                var missing = missingKinds.missing(informer);
                if (missing.isPresent()) {
                    throw new CacheSyncTimeoutException(
                            "the cache of " + entry.what() + " did not sync within " + Durations.format(timeout) + ": "
                                    + missing.get().describe(),
                            missing.get().error());
                }
                throw new CacheSyncTimeoutException("the cache of " + entry.what() + " did not sync within "
                        + Durations.format(timeout) + " (can the manager's client list and watch them?)");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private <T> Entry<T> typed(Class<T> type) {
        Objects.requireNonNull(type, "type");
        synchronized (lock) {
            Entry<T> existing = (Entry<T>) entries.get(type);
            if (existing != null) {
                return existing;
            }
        }
        ResourceClient<T> rc = resources.forType(type);
        ByObject<T> scope = options.scopeOf(type);
        UnaryOperator<T> copier = scope.unsafeDisableDeepCopy() ? UnaryOperator.identity() : copies.copier(type);
        return entry(
                type,
                resources.kindOf(type),
                rc.resource(),
                rc.namespaced(),
                scope,
                copier,
                s -> informers.informerFor(type, s));
    }

    /** The key of a type's metadata-only informers in {@link #entries}. */
    private record MetadataOf(Class<?> type) {}

    @SuppressWarnings("unchecked")
    private Entry<PartialObjectMetadata> metadata(Class<?> type) {
        Objects.requireNonNull(type, "type");
        MetadataOf key = new MetadataOf(type);
        synchronized (lock) {
            Entry<PartialObjectMetadata> existing = (Entry<PartialObjectMetadata>) entries.get(key);
            if (existing != null) {
                return existing;
            }
        }
        ResourceClient<?> rc = resources.forType(type);
        ByObject<?> typeScope = options.scopeOf(type);
        ByObject<PartialObjectMetadata> scope = ByObject.of(PartialObjectMetadata.class)
                .withLabelSelector(typeScope.labelSelector())
                .withFieldSelector(typeScope.fieldSelector());
        if (!typeScope.namespaces().isEmpty()) {
            scope = scope.inNamespaces(typeScope.namespaces().toArray(String[]::new));
        }
        UnaryOperator<PartialObjectMetadata> copier = typeScope.unsafeDisableDeepCopy()
                ? UnaryOperator.identity()
                : copies.copier(PartialObjectMetadata.class);
        return entry(
                key,
                resources.kindOf(type),
                rc.resource(),
                rc.namespaced(),
                scope,
                copier,
                s -> informers.metadataInformerFor(type, s));
    }

    private Entry<DynamicObject> dynamic(GroupVersionKind kind) {
        Objects.requireNonNull(kind, "kind");
        synchronized (lock) {
            @SuppressWarnings("unchecked")
            Entry<DynamicObject> existing = (Entry<DynamicObject>) entries.get(kind);
            if (existing != null) {
                return existing;
            }
        }
        RestMapping mapping = resources.kube().restMapper().mapping(kind);
        ByObject<DynamicObject> scope = options.scopeOf(DynamicObject.class);
        return entry(
                kind,
                kind,
                mapping.groupVersionResource(),
                mapping.namespaced(),
                scope,
                UnaryOperator.identity(),
                s -> informers.dynamicInformerFor(mapping.groupVersionResource(), mapping.scope(), s));
    }

    @SuppressWarnings("unchecked")
    private <T> Entry<T> entry(
            Object key,
            GroupVersionKind kind,
            GroupVersionResource gvr,
            boolean namespaced,
            ByObject<T> scope,
            UnaryOperator<T> copier,
            Function<InformerScope, SharedIndexInformer<T>> informerOf) {
        Entry<T> entry;
        synchronized (lock) {
            Entry<T> existing = (Entry<T>) entries.get(key);
            if (existing != null) {
                return existing;
            }
            Set<String> namespaces =
                    namespaced && !scope.namespaces().isEmpty() ? new TreeSet<>(scope.namespaces()) : Set.of("");
            GroupResource gr = new GroupResource(gvr.group(), gvr.resource());
            Map<String, Lister<T>> listers = new LinkedHashMap<>();
            Map<String, SharedIndexInformer<T>> byNamespace = new LinkedHashMap<>();
            Map<String, IndexFunction<Object>> fieldIndexes = indexes.getOrDefault(key, Map.of());
            for (String ns : namespaces) {
                InformerScope s = (ns.isEmpty() ? InformerScope.all() : InformerScope.namespace(ns))
                        .withLabelSelector(scope.labelSelector())
                        .withFieldSelector(scope.fieldSelector());
                SharedIndexInformer<T> informer = informerOf.apply(s);
                applyTransform(informer, scope);
                missingKinds.watch(informer, kind);
                Map<String, IndexFunction<T>> toAdd = new LinkedHashMap<>();
                fieldIndexes.forEach((name, f) -> {
                    if (!informer.indexer().indexers().containsKey(name)) {
                        toAdd.put(name, (IndexFunction<T>) (IndexFunction<?>) f);
                    }
                });
                if (!toAdd.isEmpty()) {
                    informer.addIndexers(toAdd);
                }
                byNamespace.put(ns, informer);
                listers.put(ns, Lister.create(informer.indexer(), gr));
            }
            entry = new Entry<>(gr.toString(), namespaced, Map.copyOf(listers), Map.copyOf(byNamespace), copier);
            entries.put(key, entry);
        }
        return entry;
    }

    /**
     * Sets on {@code informer} what it runs on each object, after the transform it already has (the
     * factory's, e.g. a metadata informer's kind): managedFields dropped unless the options keep them,
     * then the scope's own transform. An informer someone else already started keeps its objects as
     * they come when only the default dropping of managedFields was to be set; a scope's own transform
     * on it fails as before.
     */
    private <T> void applyTransform(SharedIndexInformer<T> informer, ByObject<T> scope) {
        UnaryOperator<T> transform = transformOf(scope);
        if (transform == null) {
            return;
        }
        UnaryOperator<T> existing = informer.transform();
        UnaryOperator<T> composed = existing == null ? transform : object -> transform.apply(existing.apply(object));
        try {
            informer.setTransform(composed);
        } catch (IllegalStateException alreadyStarted) {
            if (scope.transform() != null) {
                throw alreadyStarted;
            }
        }
    }

    /**
     * What the informers of {@code scope} run on each object: managedFields dropped (unless the
     * options keep them), then the scope's own transform; null for nothing.
     */
    private <T> UnaryOperator<T> transformOf(ByObject<T> scope) {
        UnaryOperator<T> own = scope.transform();
        if (options.keepManagedFields()) {
            return own;
        }
        UnaryOperator<T> strip = Transforms.stripManagedFields();
        return own == null ? strip : object -> own.apply(strip.apply(object));
    }
}
