package io.kubeloop.client.discovery;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The input matches several resources or kinds of equal priority; the message lists them all so the
 * user can qualify the input (e.g. with {@code .version.group}).
 *
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/api/meta#AmbiguousResourceError">meta.AmbiguousResourceError</a>
 */
public final class AmbiguousMatchException extends RestMappingException {

    private final List<RestMapping> candidates;

    public AmbiguousMatchException(String input, List<RestMapping> candidates) {
        super(
                input,
                "\"" + input + "\" is ambiguous, it matches "
                        + candidates.stream()
                                .map(c -> c.groupVersionResource().format() + " ("
                                        + c.groupVersionKind().kind() + ")")
                                .collect(Collectors.joining(", ")));
        this.candidates = List.copyOf(candidates);
    }

    /** The matching mappings, in discovery order. */
    public List<RestMapping> candidates() {
        return candidates;
    }
}
