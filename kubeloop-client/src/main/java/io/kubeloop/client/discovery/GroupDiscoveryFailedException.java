package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersion;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Some group versions could not be discovered; the others were. The message lists every failed
 * group version with its cause, sorted, in client-go's wording: {@code unable to retrieve the
 * complete list of server APIs: apps/v1: <cause>, ...}.
 *
 * <p>Thrown by {@link ServerResources#requireComplete()}; the partial result stays available from
 * the {@link ServerResources} it came from.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/client-go/discovery#ErrGroupDiscoveryFailed">discovery.ErrGroupDiscoveryFailed</a>
 */
public final class GroupDiscoveryFailedException extends DiscoveryException {

    private final Map<GroupVersion, RuntimeException> failures;

    public GroupDiscoveryFailedException(Map<GroupVersion, RuntimeException> failures) {
        super(message(failures));
        this.failures = Map.copyOf(failures);
        failures.values().forEach(this::addSuppressed);
    }

    /** The failed group versions and why each failed. */
    public Map<GroupVersion, RuntimeException> failures() {
        return failures;
    }

    private static String message(Map<GroupVersion, RuntimeException> failures) {
        Map<String, String> sorted = new LinkedHashMap<>();
        failures.entrySet().stream()
                .sorted(Comparator.comparing(e -> e.getKey().toString()))
                .forEach(e -> sorted.put(
                        e.getKey().toString(), String.valueOf(e.getValue().getMessage())));
        return "unable to retrieve the complete list of server APIs: "
                + sorted.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue())
                        .collect(Collectors.joining(", "));
    }
}
