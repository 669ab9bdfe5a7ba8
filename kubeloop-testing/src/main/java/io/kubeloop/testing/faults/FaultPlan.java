package io.kubeloop.testing.faults;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the {@link Fault} for each request the proxy receives. Called from the proxy's connection
 * threads: implementations must be thread-safe.
 */
@FunctionalInterface
public interface FaultPlan {

    /**
     * The fault for one request.
     *
     * @param request what the client asked for
     * @return what to do with it
     */
    Fault choose(ProxiedRequest request);

    /**
     * One request as the proxy saw it.
     *
     * @param method the HTTP method
     * @param target the request target (path and query)
     */
    record ProxiedRequest(String method, String target) {

        /** Whether this is a watch ({@code watch=true|1} in the query, or a legacy {@code /watch/} path). */
        public boolean isWatch() {
            int q = target.indexOf('?');
            String path = q < 0 ? target : target.substring(0, q);
            String query = q < 0 ? "" : target.substring(q + 1);
            for (String param : query.split("&")) {
                if (param.equals("watch=true") || param.equals("watch=1")) {
                    return true;
                }
            }
            return path.contains("/watch/");
        }
    }

    /** Never a fault. */
    static FaultPlan none() {
        return request -> new Fault.Pass();
    }

    /**
     * The kinds {@link #random} can choose from: {@link Fault#kind()}s, and {@code late-cut}, a
     * {@link Fault.Cut} no sooner than 1.2 s into the response (counted as {@code cut}). A
     * {@code blackhole} holds its client until the client's own timeout ends the request (for a watch
     * that asks for bookmarks, the client's idle timeout), so a plan with it needs clients with short
     * timeouts.
     */
    List<String> KINDS = List.of("cut", "late-cut", "stall", "reject-429", "reject-500", "watch-gone", "blackhole");

    /** The kinds of {@link #random(long, double, int, Duration)}: every kind but {@code late-cut} and {@code blackhole}. */
    List<String> ALL_AT_ONCE = List.of("cut", "stall", "reject-429", "reject-500", "watch-gone");

    /**
     * Faults at random, as {@link #random(long, double, int, Duration, java.util.List)} with the
     * kinds of {@link #ALL_AT_ONCE} (410s for watches only).
     *
     * @param seed the random seed (print it with a failure to reproduce the run)
     * @param rate the share of requests faulted, 0 to 1
     * @param maxCutBytes the latest point of a cut or stall
     * @param maxStall the longest stall
     * @return the plan
     */
    static FaultPlan random(long seed, double rate, int maxCutBytes, Duration maxStall) {
        return random(seed, rate, maxCutBytes, maxStall, ALL_AT_ONCE);
    }

    /**
     * Faults at random: each request is faulted with probability {@code rate}; faulted requests take
     * the {@code kinds} in turn, watches and other requests each their own turns (the next kind that
     * fits: {@code watch-gone} only for watches), so every
     * kind comes within a few faulted requests while which requests are hit, and where a cut, stall
     * or blackhole falls, stay random. Cuts and blackholes fall within the first {@code maxCutBytes} of
     * the body; stalls last up to {@code maxStall}; refusals advise a 1 s {@code Retry-After}.
     *
     * @param seed the random seed (print it with a failure to reproduce the run)
     * @param rate the share of requests faulted, 0 to 1
     * @param maxCutBytes the latest point of a cut or stall
     * @param maxStall the longest stall
     * @param kinds the kinds to choose from, a subset of {@link #KINDS}
     * @return the plan
     */
    static FaultPlan random(long seed, double rate, int maxCutBytes, Duration maxStall, List<String> kinds) {
        if (kinds.isEmpty() || !KINDS.containsAll(kinds)) {
            throw new IllegalArgumentException("kinds must be a non-empty subset of " + KINDS + ", got " + kinds);
        }
        SplittableRandom random = new SplittableRandom(seed);
        // watches and other requests take turns separately: watches are the few, and 410s are theirs
        AtomicInteger watchTurn = new AtomicInteger();
        AtomicInteger otherTurn = new AtomicInteger();
        return request -> {
            SplittableRandom r;
            synchronized (random) {
                r = random.split();
            }
            boolean fits = request.isWatch() || kinds.stream().anyMatch(k -> !k.equals("watch-gone"));
            if (!fits || r.nextDouble() >= rate) {
                return new Fault.Pass();
            }
            String kind;
            AtomicInteger turn = request.isWatch() ? watchTurn : otherTurn;
            do {
                kind = kinds.get(Math.floorMod(turn.getAndIncrement(), kinds.size()));
            } while (kind.equals("watch-gone") && !request.isWatch());
            return switch (kind) {
                case "cut" -> new Fault.Cut(r.nextInt(maxCutBytes), Duration.ZERO);
                case "late-cut" -> new Fault.Cut(r.nextInt(maxCutBytes), Duration.ofMillis(1200));
                case "stall" ->
                    new Fault.Stall(r.nextInt(maxCutBytes), Duration.ofMillis(r.nextLong(maxStall.toMillis() + 1)));
                case "reject-429" -> new Fault.Reject(429, "TooManyRequests", Duration.ofSeconds(1));
                case "reject-500" -> new Fault.Reject(500, "InternalError", Duration.ofSeconds(1));
                case "blackhole" -> new Fault.Blackhole(r.nextInt(maxCutBytes));
                default -> new Fault.WatchGone();
            };
        };
    }
}
