package io.kubeloop.api.errors;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A failure's cause chain, read safely: each throwable once, so a chain that loops back on itself (a cause set
 * to an earlier link) ends instead of spinning. What a client or controller asks of a failure — was it a
 * conflict, a cancellation, a refused connection, what did the innermost link say — is a question about this
 * chain (Go's {@code errors.As} over wrapped errors).
 *
 * <p>Stateless and thread-safe.
 */
public final class Causes {

    private Causes() {}

    /**
     * {@code failure}, its cause, that one's cause and so on, each once, outermost first.
     *
     * @param failure the outermost throwable; null gives an empty chain
     * @return the chain, unmodifiable
     */
    public static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return Collections.unmodifiableList(chain);
    }

    /**
     * The outermost link of the chain that is a {@code type}.
     *
     * @param failure the outermost throwable, or null
     * @param type what to look for
     * @param <T> its type
     * @return that link, or empty when no link is one
     */
    public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
        for (Throwable t : chain(failure)) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether some link of the chain is a {@code type}.
     *
     * @param failure the outermost throwable, or null
     * @param type what to look for
     * @return true when a link is one
     */
    public static boolean has(Throwable failure, Class<? extends Throwable> type) {
        return find(failure, type).isPresent();
    }

    /**
     * The innermost link: the last one before the chain ends or loops.
     *
     * @param failure the outermost throwable, not null
     * @return the root cause; {@code failure} itself when it has no cause
     */
    public static Throwable root(Throwable failure) {
        List<Throwable> chain = chain(Objects.requireNonNull(failure, "failure"));
        return chain.get(chain.size() - 1);
    }
}
