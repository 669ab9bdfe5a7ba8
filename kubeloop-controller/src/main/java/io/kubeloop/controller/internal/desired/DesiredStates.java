package io.kubeloop.controller.internal.desired;

import io.kubeloop.api.Scheme;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.util.OwnedObjects;
import java.util.Objects;

/**
 * What one controller keeps for the {@link OwnedObjects} of its reconciles: the scheme that names
 * kinds, the field manager it applies as, the kinds it watches for owners, and its memory of the
 * last apply per owned object. Made once per controller; hands out one {@link OwnedObjects} per
 * owner and reconcile.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class DesiredStates {

    /** How many owned objects a controller remembers its last apply of. */
    static final int REMEMBERED = 65_536;

    private final Scheme scheme;
    private final String fieldManager;
    private final OwnedKinds ownedKinds;
    private final LastApplied lastApplied;

    private DesiredStates(Scheme scheme, String fieldManager, OwnedKinds ownedKinds, int remembered) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.fieldManager = Objects.requireNonNull(fieldManager, "fieldManager");
        this.ownedKinds = Objects.requireNonNull(ownedKinds, "ownedKinds");
        this.lastApplied = new LastApplied(remembered);
    }

    /**
     * The state of one controller.
     *
     * @param scheme maps Java types to kinds (owners' and owned objects')
     * @param fieldManager the field manager of its applies: the controller's name
     * @param ownedKinds watches the kinds applied, for their owners
     * @return the state
     */
    public static DesiredStates create(Scheme scheme, String fieldManager, OwnedKinds ownedKinds) {
        return new DesiredStates(scheme, fieldManager, ownedKinds, REMEMBERED);
    }

    /** For tests: a smaller memory. */
    static DesiredStates create(Scheme scheme, String fieldManager, OwnedKinds ownedKinds, int remembered) {
        return new DesiredStates(scheme, fieldManager, ownedKinds, remembered);
    }

    /**
     * The objects {@code owner} controls, read and written through {@code client}.
     *
     * @param owner the owner, as read from the server (it has a uid)
     * @param client the reconcile's client: reads from the cache, writes to the server
     * @return the owned objects
     */
    public OwnedObjects owned(Object owner, Client client) {
        return new DefaultOwnedObjects(
                Objects.requireNonNull(owner, "owner"),
                Objects.requireNonNull(client, "client"),
                scheme,
                fieldManager,
                ownedKinds,
                lastApplied);
    }

    /** The field manager of the applies. */
    public String fieldManager() {
        return fieldManager;
    }
}
