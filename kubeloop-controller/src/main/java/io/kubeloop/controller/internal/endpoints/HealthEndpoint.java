package io.kubeloop.controller.internal.endpoints;

import io.kubeloop.controller.endpoints.HealthCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A set of named {@link HealthCheck}s answered as controller-runtime's healthz handler answers them.
 * On the endpoint's root: every check runs; all pass → 200 {@code ok} (with {@code ?verbose} one
 * {@code [+]name ok} line per check and {@code healthz check passed}); any fails → 500 with one line
 * per check, a failed one as {@code [-]name failed: reason withheld} (the root is public; the reason
 * is logged), and {@code healthz check failed}. {@code ?exclude=name} (repeatable) skips a check,
 * shown as {@code [+]name excluded: ok}; a name that matches nothing is reported in a {@code warn:}
 * line. With no checks the root answers as if there were one passing check {@code ping}. On
 * {@code /<name>}: that check alone — 200 {@code ok}, or 500 {@code internal server error: <reason>};
 * an unknown name is 404.
 *
 * <p><b>Thread safety:</b> thread-safe; checks may be added while probes are answered.
 */
public final class HealthEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(HealthEndpoint.class);

    /** An answer: HTTP status and plain-text body. */
    public record Answer(int status, String body) {}

    private final String name;
    private final Map<String, HealthCheck> checks = new ConcurrentSkipListMap<>();

    /**
     * An endpoint with no checks yet.
     *
     * @param name {@code healthz} or {@code readyz}, for log lines
     */
    public HealthEndpoint(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Adds a check.
     *
     * @param checkName its name: non-empty, no {@code /}
     * @param check the check
     * @throws IllegalArgumentException if the name is invalid or already taken
     */
    public void add(String checkName, HealthCheck check) {
        Objects.requireNonNull(checkName, "checkName");
        Objects.requireNonNull(check, "check");
        if (checkName.isEmpty() || checkName.contains("/")) {
            throw new IllegalArgumentException(
                    "a " + name + " check needs a non-empty name without '/', got \"" + checkName + "\"");
        }
        if (checks.putIfAbsent(checkName, check) != null) {
            throw new IllegalArgumentException("a " + name + " check named \"" + checkName + "\" is already added");
        }
    }

    /**
     * Answers a probe.
     *
     * @param subPath what follows the endpoint's path ({@code ""} or {@code "/"} for the root,
     *     {@code "/name"} for one check)
     * @param query the query parameters
     * @return the answer
     */
    public Answer answer(String subPath, Map<String, List<String>> query) {
        String path = subPath.replaceAll("/+$", "");
        if (path.isEmpty()) {
            return aggregated(query);
        }
        String checkName = path.substring(1);
        HealthCheck check = checks.get(checkName);
        if (check == null && checks.isEmpty() && checkName.equals("ping")) {
            check = HealthCheck.ping();
        }
        if (check == null) {
            return new Answer(404, "404 page not found\n");
        }
        String failure = run(checkName, check);
        return failure == null ? new Answer(200, "ok") : new Answer(500, "internal server error: " + failure + "\n");
    }

    private Answer aggregated(Map<String, List<String>> query) {
        Set<String> unknownExcludes = new TreeSet<>(query.getOrDefault("exclude", List.of()));
        List<String> lines = new ArrayList<>();
        List<String> failedNames = new ArrayList<>();
        checks.forEach((checkName, check) -> {
            if (unknownExcludes.remove(checkName)) {
                lines.add("[+]" + checkName + " excluded: ok");
            } else if (run(checkName, check) != null) {
                lines.add("[-]" + checkName + " failed: reason withheld");
                failedNames.add(checkName);
            } else {
                lines.add("[+]" + checkName + " ok");
            }
        });
        if (checks.isEmpty()) {
            lines.add("[+]ping ok");
        }
        boolean failed = !failedNames.isEmpty();
        if (failed) {
            LOG.info("{} check failed: {}", name, failedNames);
        }
        if (!failed && !query.containsKey("verbose")) {
            return new Answer(200, "ok");
        }
        StringBuilder body = new StringBuilder();
        lines.forEach(l -> body.append(l).append('\n'));
        if (!unknownExcludes.isEmpty()) {
            body.append("warn: some health checks cannot be excluded: no matches for ")
                    .append(String.join(
                            ",",
                            unknownExcludes.stream().map(n -> "\"" + n + "\"").toList()))
                    .append('\n');
        }
        body.append(failed ? "healthz check failed\n" : "healthz check passed\n");
        return new Answer(failed ? 500 : 200, body.toString());
    }

    /** Runs a check; its failure reason, or null when it passed. */
    private String run(String checkName, HealthCheck check) {
        try {
            check.check();
            return null;
        } catch (Exception e) {
            LOG.debug("{} check {} failed", name, checkName, e);
            return e.getMessage() != null ? e.getMessage() : e.toString();
        }
    }
}
