package io.kubeloop.controller;

import io.kubeloop.api.Scheme;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.events.EventRecorder;
import io.kubeloop.controller.internal.desired.DesiredStates;
import io.kubeloop.controller.internal.desired.OwnedKinds;
import io.kubeloop.controller.util.OwnedObjects;
import io.kubeloop.time.Ticker;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a reconcile works with besides its {@link Request}: controller-runtime's {@code ctx} and the
 * manager's clients, handed to {@link Reconciler#reconcile} by the controller.
 *
 * <ul>
 *   <li>{@link #client()}: the manager's cache-backed {@link Client}, refusing every call once this
 *       reconcile's {@link #cancellation()} fired;</li>
 *   <li>{@link #events()}: an Event recorder reporting as the controller;</li>
 *   <li>{@link #log()}: a logger named for the controller; while the reconcile runs, the SLF4J MDC
 *       of its thread holds {@code controller}, {@code namespace}, {@code name} and
 *       {@code reconcileID} (a pattern such as {@code %X{controller} %X{namespace}/%X{name}} prints
 *       them), as controller-runtime's logger carries them;</li>
 *   <li>{@link #cancellation()}: fires when the controller stops — the manager shuts down or lost its
 *       leader lease. A reconcile blocked in the client then is interrupted;</li>
 *   <li>{@link #owned(Object)}: the objects an owner controls, applied at their desired state in one
 *       call each, written only when the server's differ, and watched for the owner;</li>
 *   <li>{@link #ticker()}: the controller's clock (the manager's), for the times a reconcile writes,
 *       such as a condition's {@code lastTransitionTime}.</li>
 * </ul>
 *
 * <p>A controller made without a manager has no client and no recorder: {@link #client()} and
 * {@link #events()} then throw. Tests of a reconciler make a
 * context with {@link #of}.
 *
 * <p><b>Thread safety:</b> immutable; thread-safe.
 */
public final class ReconcileContext {

    private final String controller;
    private final Client client;
    private final EventRecorder events;
    private final Logger log;
    private final Cancellation cancellation;
    private final DesiredStates desired;
    private final Ticker ticker;

    private ReconcileContext(
            String controller,
            Client client,
            EventRecorder events,
            Logger log,
            Cancellation cancellation,
            DesiredStates desired,
            Ticker ticker) {
        this.controller = controller;
        this.client = client;
        this.events = events;
        this.log = log;
        this.cancellation = cancellation;
        this.desired = desired;
        this.ticker = ticker;
    }

    /**
     * A context, for running a reconciler outside a controller (in a unit test), on the system
     * clock. Its {@link #owned} objects are applied as {@code controller}, resolve types through
     * {@link Scheme#defaults()}, watch nothing and remember no earlier apply.
     *
     * @param controller the controller's name
     * @param client the client, or null for none
     * @param events the recorder, or null for none
     * @param cancellation the signal
     * @return the context
     */
    public static ReconcileContext of(
            String controller, Client client, EventRecorder events, Cancellation cancellation) {
        return of(controller, client, events, cancellation, Ticker.system());
    }

    /**
     * {@link #of(String, Client, EventRecorder, Cancellation)} on {@code ticker}, a fake one in tests.
     *
     * @param controller the controller's name
     * @param client the client, or null for none
     * @param events the recorder, or null for none
     * @param cancellation the signal
     * @param ticker the clock
     * @return the context
     */
    public static ReconcileContext of(
            String controller, Client client, EventRecorder events, Cancellation cancellation, Ticker ticker) {
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(cancellation, "cancellation");
        Objects.requireNonNull(ticker, "ticker");
        return new ReconcileContext(
                controller,
                client,
                events,
                LoggerFactory.getLogger(loggerName(controller)),
                cancellation,
                DesiredStates.create(Scheme.defaults(), controller, OwnedKinds.NONE),
                ticker);
    }

    /** A context made by a controller for one reconcile; {@code desired} is the controller's. */
    static ReconcileContext create(
            String controller,
            Client client,
            EventRecorder events,
            Logger log,
            Cancellation cancellation,
            DesiredStates desired,
            Ticker ticker) {
        return new ReconcileContext(controller, client, events, log, cancellation, desired, ticker);
    }

    /** The logger name of a controller's reconciles: {@code io.kubeloop.controller.<name>}. */
    static String loggerName(String controller) {
        return "io.kubeloop.controller." + controller;
    }

    /** The name of the controller running this reconcile. */
    public String controllerName() {
        return controller;
    }

    /**
     * The manager's client: reads from its cache, writes to the API server; refuses every call
     * once {@link #cancellation()} fired.
     *
     * @throws IllegalStateException when the controller was made without a client
     */
    public Client client() {
        if (client == null) {
            throw new IllegalStateException(
                    "controller " + controller + " has no client: it was built without a manager;"
                            + " build it with ControllerBuilder.build(manager, reconciler)");
        }
        return client;
    }

    /**
     * Records Events as this controller.
     *
     * @throws IllegalStateException when the controller was made without a recorder
     */
    public EventRecorder events() {
        if (events == null) {
            throw new IllegalStateException(
                    "controller " + controller + " has no event recorder: it was built without a manager;"
                            + " build it with ControllerBuilder.build(manager, reconciler)");
        }
        return events;
    }

    /** The controller's logger; the MDC holds the request while the reconcile runs. */
    public Logger log() {
        return log;
    }

    /**
     * The controller's clock: the manager's ticker for a controller built with
     * {@link ControllerBuilder#build(Manager, Reconciler)}. Give it to
     * {@link io.kubeloop.api.Conditions#setStatusCondition}, so that a fake clock in a test drives the
     * times a reconcile writes too.
     */
    public Ticker ticker() {
        return ticker;
    }

    /** Fires when the controller stops; the client refuses calls afterwards. */
    public Cancellation cancellation() {
        return cancellation;
    }

    /**
     * The objects {@code owner} controls, to apply at their desired state: each
     * {@link OwnedObjects#apply apply} sets the owner's namespace and a controller reference, sends
     * a server-side apply (as this controller's field manager, its name) only when the cached object
     * differs, and makes the controller watch the kind for owners from then on, as
     * {@link ControllerBuilder#owns} does. See {@link OwnedObjects} for how a difference is decided
     * without ever looping.
     *
     * {@snippet :
     * Optional<Foo> foo = context.client().getOptional(Foo.class, request.key());
     * if (foo.isPresent()) {
     *     context.owned(foo.get()).apply(desiredDeployment(foo.get()));
     *     context.owned(foo.get()).apply(desiredService(foo.get()));
     * }
     * }
     *
     * @param owner the owner, as read (it has a uid)
     * @return its owned objects, for this reconcile
     * @throws IllegalStateException when the controller was made without a client
     * @throws IllegalArgumentException when the owner has no uid or its type is not a kind of the
     *     scheme
     */
    public OwnedObjects owned(Object owner) {
        return desired.owned(owner, client());
    }

    @Override
    public String toString() {
        return "ReconcileContext[" + controller + ", " + cancellation + "]";
    }
}
