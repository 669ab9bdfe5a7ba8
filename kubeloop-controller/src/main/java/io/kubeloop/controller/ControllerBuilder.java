package io.kubeloop.controller;

import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.ResourceMapping;
import io.kubeloop.api.Scheme;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.controller.internal.desired.DesiredStates;
import io.kubeloop.controller.internal.rbac.Declarations;
import io.kubeloop.controller.internal.rbac.ScopedRule;
import io.kubeloop.controller.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Builds a {@link Controller} from what it reconciles and what it watches, with shared informers
 * from an {@link InformerFactory} (controller-runtime's {@code builder}):
 *
 * {@snippet :
 * Controller controller = ControllerBuilder.forResource(Foo.class)   // Foo events enqueue the Foo
 *         .owns(Deployment.class)                                    // Deployment events enqueue their controlling Foo
 *         .withOptions(o -> o.maxConcurrentReconciles(2))
 *         .build(informers, new FooReconciler(...));
 * informers.start();
 * controller.start();
 * }
 *
 * <p>The reconciled type comes first, so the mistakes controller-runtime reports when building
 * (no watch, {@code Owns} without {@code For}, {@code For} twice) cannot be written. Types are
 * resolved through a {@link Scheme} ({@link Scheme#defaults()} unless {@link #scheme} says
 * otherwise): kubeloop's models of the built-in kinds, fabric8's model classes with {@code
 * kubeloop-fabric8}, records annotated with
 * {@link io.kubeloop.api.Kind}. Informers are the factory's shared ones over all namespaces; the
 * caller starts the factory. The controller's name defaults to the reconciled kind in lower case.
 *
 * <p>Not thread-safe: build on one thread, then share the controller.
 *
 * @param <T> the reconciled type
 */
public final class ControllerBuilder<T> {

    /** Where a watched type's informers come from: the factory's over all namespaces, or the manager's cache. */
    private interface InformerSource {
        <U> List<SharedIndexInformer<U>> informersFor(Class<U> type);

        List<SharedIndexInformer<PartialObjectMetadata>> metadataInformersFor(Class<?> type);
    }

    /** One watch to register at build time. */
    private record WatchSpec<U>(Class<U> type, EventHandler<U> handler, Predicate<? super Event<U>> filter) {
        void register(Controller controller, InformerSource informers, Predicate<? super Event<?>> global) {
            Predicate<? super Event<U>> local = filter;
            for (SharedIndexInformer<U> informer : informers.informersFor(type)) {
                controller.watch(informer, handler, event -> global.test(event) && local.test(event));
            }
        }
    }

    /** An owned type, the filter on its events, and whether it is watched through its metadata only. */
    private record Owned(Class<?> type, Predicate<? super Event<?>> filter, boolean metadataOnly) {}

    /** A qualified name with a DNS subdomain prefix: what the API server accepts as a custom finalizer. */
    private static final Pattern FINALIZER = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

    private final Class<T> type;
    private final List<WatchSpec<?>> watches = new ArrayList<>();
    private final List<Owned> owned = new ArrayList<>();
    private final List<PolicyRule> permissions = new ArrayList<>();
    private String finalizer;
    private Cleaner<? super T> cleaner;
    private Predicate<? super Event<T>> forFilter = event -> true;
    private Predicate<? super Event<?>> eventFilter = event -> true;
    private Scheme scheme = Scheme.defaults();
    private String name;
    private Consumer<ControllerOptions.Builder> options = o -> {};

    private ControllerBuilder(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Starts a builder for a controller that reconciles {@code type}: every event of a {@code type}
     * object enqueues that object ({@link EventHandler#forObject()}).
     *
     * @param type the reconciled type
     * @param <T> the reconciled type
     * @return a new builder
     */
    public static <T> ControllerBuilder<T> forResource(Class<T> type) {
        return new ControllerBuilder<>(type);
    }

    /**
     * Filters the reconciled type's own events, e.g. {@link Predicates#generationChanged()}.
     *
     * @param filter which events enqueue the object
     * @return this builder
     */
    public ControllerBuilder<T> withPredicate(Predicate<? super Event<T>> filter) {
        this.forFilter = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /**
     * Watches {@code ownedType}: its events enqueue the object of the reconciled type that controls it
     * ({@link EventHandler#forOwner}, controller owner references only).
     *
     * @param ownedType a type the reconciler creates and marks as controlled
     * @return this builder
     */
    public ControllerBuilder<T> owns(Class<?> ownedType) {
        return owns(ownedType, event -> true);
    }

    /**
     * {@link #owns(Class)} with a filter on the owned type's events.
     *
     * @param ownedType a type the reconciler creates and marks as controlled
     * @param filter which of its events count
     * @return this builder
     */
    public ControllerBuilder<T> owns(Class<?> ownedType, Predicate<? super Event<?>> filter) {
        owned.add(new Owned(
                Objects.requireNonNull(ownedType, "ownedType"), Objects.requireNonNull(filter, "filter"), false));
        return this;
    }

    /**
     * {@link #owns(Class)} through a metadata-only informer (controller-runtime's
     * {@code Owns(obj, builder.OnlyMetadata)}): the owned objects' names, labels and owner references
     * are all a controller needs to map their changes to their owner, and the cache then holds their
     * metadata only — for large kinds such as Pods or Secrets. Read them with
     * {@code client.getMetadata(type, key)} / {@code listMetadata}.
     *
     * @param ownedType a type the reconciler creates and marks as controlled
     * @return this builder
     */
    public ControllerBuilder<T> ownsMetadataOnly(Class<?> ownedType) {
        owned.add(new Owned(Objects.requireNonNull(ownedType, "ownedType"), event -> true, true));
        return this;
    }

    /**
     * Holds every reconciled object with {@code finalizer} until {@code cleaner} has cleaned up after
     * it (the Java Operator SDK's {@code Cleaner}): the finalizer is added to a live object before
     * the reconciler sees it, and an object being deleted goes to the cleaner — until it succeeds,
     * across restarts — instead of the reconciler; see {@link Cleaner}. The finalizer is set with a
     * merge patch, so the controller also needs {@code patch} on the reconciled type, which
     * {@link #build(Manager, Reconciler)} declares; the update that adds it reconciles the object
     * whatever {@link #withPredicate} and {@link #withEventFilter} say. Needs a manager: the
     * finalizer is read and written through its client.
     *
     * @param finalizer the finalizer's name, a qualified name such as {@code example.com/cleanup}
     * @param cleaner cleans up after an object being deleted
     * @return this builder
     * @throws IllegalArgumentException if the finalizer is not a qualified name with a domain prefix
     * @throws IllegalStateException if a cleanup is set already
     */
    public ControllerBuilder<T> withCleanup(String finalizer, Cleaner<? super T> cleaner) {
        Objects.requireNonNull(finalizer, "finalizer");
        Objects.requireNonNull(cleaner, "cleaner");
        if (!FINALIZER.matcher(finalizer).matches()) {
            throw new IllegalArgumentException("finalizer \"" + finalizer + "\" must be a qualified name with a"
                    + " domain prefix, such as example.com/cleanup");
        }
        if (this.cleaner != null) {
            throw new IllegalStateException("the cleanup is set already, with finalizer " + this.finalizer);
        }
        this.finalizer = finalizer;
        this.cleaner = cleaner;
        return this;
    }

    /**
     * Watches {@code watchedType} with any handler, e.g. {@link EventHandler#fromMapFunction}.
     *
     * @param watchedType the watched type
     * @param handler maps its events to requests
     * @param filter which of its events reach the handler
     * @param <U> the watched type
     * @return this builder
     */
    public <U> ControllerBuilder<T> watches(
            Class<U> watchedType, EventHandler<U> handler, Predicate<? super Event<U>> filter) {
        watches.add(new WatchSpec<>(
                Objects.requireNonNull(watchedType, "watchedType"),
                Objects.requireNonNull(handler, "handler"),
                Objects.requireNonNull(filter, "filter")));
        return this;
    }

    /**
     * A filter applied to the events of every watch, in addition to each watch's own
     * (controller-runtime's {@code WithEventFilter}).
     *
     * @param filter which events count at all
     * @return this builder
     */
    public ControllerBuilder<T> withEventFilter(Predicate<? super Event<?>> filter) {
        this.eventFilter = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /**
     * The controller's name; default the reconciled kind in lower case.
     *
     * @param name not blank
     * @return this builder
     */
    public ControllerBuilder<T> named(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * Sets options other than the name (workers, rate limiter, metrics...). Calls add up: each
     * consumer runs after those of earlier calls, so a later one wins where both set an option.
     *
     * @param options called with the options builder before the controller is built
     * @return this builder
     */
    public ControllerBuilder<T> withOptions(Consumer<ControllerOptions.Builder> options) {
        this.options = this.options.andThen(Objects.requireNonNull(options, "options"));
        return this;
    }

    /**
     * The scheme that maps types to kinds and resources; default {@link Scheme#defaults()}.
     *
     * @param scheme the scheme
     * @return this builder
     */
    public ControllerBuilder<T> scheme(Scheme scheme) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        return this;
    }

    /**
     * Declares RBAC rules the reconciler needs beyond reading the watched types — its writes, its other
     * reads — in addition to the {@link io.kubeloop.controller.rbac.Permission @Permission} annotations
     * on its class; for rules that depend on configuration, or reconcilers that are lambdas. Calls add
     * up. Used by {@link #build(Manager, Reconciler)}, which adds them to
     * {@link Manager#permissions()}.
     *
     * @param rules the rules
     * @return this builder
     */
    public ControllerBuilder<T> withPermissions(PolicyRule... rules) {
        for (PolicyRule rule : rules) {
            permissions.add(Objects.requireNonNull(rule, "rule"));
        }
        return this;
    }

    /**
     * The name the controller will get: {@link #named} or the reconciled kind in lower case.
     *
     * @return the name
     * @throws IllegalArgumentException if the reconciled type is not a kind of the scheme
     */
    public String name() {
        return name != null ? name : mapping(type).gvk().kind().toLowerCase(Locale.ROOT);
    }

    /**
     * Builds the controller and registers its watches on {@code informers}' shared informers (which
     * the caller starts, before or after {@link Controller#start()} is called — it waits for them).
     *
     * @param informers where the informers come from
     * @param reconciler what each request runs
     * @return the controller, not started
     * @throws IllegalArgumentException if a type is not a kind of the scheme
     */
    public Controller build(InformerFactory informers, Reconciler reconciler) {
        Objects.requireNonNull(informers, "informers");
        if (cleaner != null) {
            throw new IllegalStateException("withCleanup needs a manager's client: build(manager, reconciler)");
        }
        InformerSource all = new InformerSource() {
            @Override
            public <U> List<SharedIndexInformer<U>> informersFor(Class<U> t) {
                return List.of(informers.informerFor(t, InformerScope.all()));
            }

            @Override
            public List<SharedIndexInformer<PartialObjectMetadata>> metadataInformersFor(Class<?> t) {
                return List.of(informers.metadataInformerFor(t, InformerScope.all()));
            }
        };
        return build(all, reconciler, options, (r, o) -> Controller.create(r, o));
    }

    /**
     * Builds the controller over {@code manager}'s cache, and adds it to the manager — which starts
     * it when it leads (controller-runtime's {@code NewControllerManagedBy(mgr)…Complete(r)}). Each
     * watched type is watched through the informers the manager's
     * {@link io.kubeloop.controller.client.CacheOptions cache scope} gives it (one per namespace of
     * the scope, or one over all). Each reconcile gets a {@link ReconcileContext} with the manager's
     * client, a recorder reporting as the controller, the controller's cancellation, and the
     * {@link ReconcileContext#owned owned objects} of an owner: applied as the controller's name,
     * remembered by the controller, and each kind applied watched for its owners from its first
     * apply on (kinds declared with {@link #owns} are watched from the start). With
     * {@link #withCleanup} the reconciler runs behind the finalizer. The controller reports to the manager's meter registry, runs on its ticker and takes its graceful
     * shutdown timeout, unless {@link #withOptions} says otherwise. Its RBAC needs join
     * {@link Manager#permissions()}: {@code get, list, watch} on each watched type; {@code patch} on the
     * reconciled type with a cleanup; {@code update} on the reconciled type's {@code finalizers} subresource
     * when it owns a type (its owned objects' controller references block its deletion, which clusters
     * enforcing owner references, such as OpenShift, authorize so), where the reconciled type is read; and
     * the rules of {@link #withPermissions} and of the reconciler class's
     * {@link io.kubeloop.controller.rbac.Permission @Permission} annotations.
     *
     * @param manager the manager, not started
     * @param reconciler what each request runs
     * @return the controller, added to the manager
     * @throws IllegalArgumentException if a type is not a kind of the scheme
     * @throws IllegalStateException if the manager has started
     */
    public Controller build(Manager manager, Reconciler reconciler) {
        Objects.requireNonNull(manager, "manager");
        manager.requireNotStarted();
        List<ScopedRule> rbac = rbacRules(manager, Objects.requireNonNull(reconciler, "reconciler"));
        Consumer<ControllerOptions.Builder> withManager = o -> {
            o.meterRegistry(manager.meterRegistry());
            o.ticker(manager.ticker());
            o.gracefulShutdownTimeout(manager.options().gracefulShutdownTimeout());
            options.accept(o);
        };
        InformerSource cache = new InformerSource() {
            @Override
            public <U> List<SharedIndexInformer<U>> informersFor(Class<U> t) {
                return manager.cache().informersFor(t);
            }

            @Override
            public List<SharedIndexInformer<PartialObjectMetadata>> metadataInformersFor(Class<?> t) {
                return manager.cache().metadataInformersFor(t);
            }
        };
        ResourceMapping reconciled = mapping(type);
        List<Class<?>> declaredOwned = owned.stream().<Class<?>>map(Owned::type).toList();
        OwnedWatches ownedWatches = new OwnedWatches(
                reconciled.gvk().groupKind(), reconciled.scope(), manager.cache(), eventFilter, declaredOwned);
        Reconciler behindFinalizer =
                cleaner == null ? reconciler : new CleanupReconciler<>(type, finalizer, cleaner, reconciler);
        Controller controller = build(
                cache,
                behindFinalizer,
                withManager,
                (r, o) -> new DefaultController(
                        r,
                        o,
                        manager::clientFor,
                        manager.eventRecorderFor(o.name()),
                        DesiredStates.create(scheme, o.name(), ownedWatches),
                        manager::missingKind));
        ownedWatches.bind(controller);
        manager.add(controller);
        manager.declare(rbac);
        return controller;
    }

    /**
     * What the controller needs: reads of every watched type where the cache holds it, update of the
     * reconciled type's finalizers where it is read when it owns a type, and the declared rules where the
     * cache's default namespaces are.
     */
    private List<ScopedRule> rbacRules(Manager manager, Reconciler reconciler) {
        List<ScopedRule> rules = new ArrayList<>();
        List<Class<?>> watched = new ArrayList<>();
        watched.add(type);
        owned.forEach(o -> watched.add(o.type()));
        watches.forEach(w -> watched.add(w.type()));
        for (Class<?> t : watched) {
            ResourceMapping m = mapping(t);
            PolicyRule read = PolicyRule.forResources(m.gvk().group(), List.of(m.resource()), "get", "list", "watch");
            Set<String> namespaces =
                    m.namespaced() ? manager.options().cache().scopeOf(t).namespaces() : Set.of();
            rules.add(new ScopedRule(read, namespaces));
        }
        if (!owned.isEmpty()) {
            // the owned objects carry controller references with blockOwnerDeletion to the reconciled object:
            // clusters enforcing owner references (OpenShift) require update on its finalizers, as kubebuilder grants
            ResourceMapping m = mapping(type);
            PolicyRule finalizers =
                    PolicyRule.forResources(m.gvk().group(), List.of(m.resource() + "/finalizers"), "update");
            rules.add(new ScopedRule(
                    finalizers,
                    m.namespaced() ? manager.options().cache().scopeOf(type).namespaces() : Set.of()));
        }
        List<PolicyRule> declared = new ArrayList<>(Declarations.fromAnnotations(reconciler.getClass()));
        declared.addAll(permissions);
        if (cleaner != null) {
            ResourceMapping m = mapping(type);
            declared.add(PolicyRule.forResources(m.gvk().group(), List.of(m.resource()), "patch"));
        }
        Set<String> defaults = manager.options().cache().defaultNamespaces();
        for (PolicyRule rule : declared) {
            rules.addAll(Declarations.scope(rule, scheme, defaults));
        }
        return rules;
    }

    private Controller build(
            InformerSource informers,
            Reconciler reconciler,
            Consumer<ControllerOptions.Builder> withOptions,
            BiFunction<Reconciler, ControllerOptions, Controller> create) {
        Objects.requireNonNull(reconciler, "reconciler");
        ResourceMapping reconciled = mapping(type);
        owned.forEach(o -> mapping(o.type())); // fail before anything is registered
        watches.forEach(w -> mapping(w.type()));
        ControllerOptions.Builder builder = ControllerOptions.builder(name());
        withOptions.accept(builder);
        Controller controller = create.apply(reconciler, builder.build());
        if (cleaner == null) {
            new WatchSpec<>(type, EventHandler.<T>forObject(), forFilter).register(controller, informers, eventFilter);
        } else {
            // the update that adds the finalizer reconciles the object (CleanupReconciler stops there),
            // whatever the filters say of it: a generation-changed filter would drop it
            String held = finalizer;
            Predicate<Event<T>> filters = event -> eventFilter.test(event) && forFilter.test(event);
            new WatchSpec<>(
                            type,
                            EventHandler.<T>forObject(),
                            event -> CleanupReconciler.addsFinalizer(event, held) || filters.test(event))
                    .register(controller, informers, event -> true);
        }
        for (Owned o : owned) {
            if (o.metadataOnly()) {
                EventHandler<PartialObjectMetadata> toOwner =
                        EventHandler.forOwner(reconciled.gvk().groupKind(), reconciled.scope());
                Predicate<? super Event<?>> local = o.filter();
                for (SharedIndexInformer<PartialObjectMetadata> informer : informers.metadataInformersFor(o.type())) {
                    controller.watch(informer, toOwner, event -> eventFilter.test(event) && local.test(event));
                }
            } else {
                registerOwned(o.type(), o.filter(), reconciled, controller, informers);
            }
        }
        for (WatchSpec<?> w : watches) {
            w.register(controller, informers, eventFilter);
        }
        return controller;
    }

    private <U> void registerOwned(
            Class<U> ownedType,
            Predicate<? super Event<?>> filter,
            ResourceMapping owner,
            Controller controller,
            InformerSource informers) {
        new WatchSpec<U>(ownedType, EventHandler.forOwner(owner.gvk().groupKind(), owner.scope()), filter::test)
                .register(controller, informers, eventFilter);
    }

    private ResourceMapping mapping(Class<?> t) {
        return scheme.mappingOf(t)
                .orElseThrow(
                        () -> new IllegalArgumentException(
                                t.getName()
                                        + " is not a Kubernetes kind of the scheme: register it in the Scheme or annotate it with @Kind"));
    }
}
