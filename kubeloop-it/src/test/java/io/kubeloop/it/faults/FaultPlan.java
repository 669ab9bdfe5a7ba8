package io.kubeloop.it.faults;

import java.time.Duration;
import java.util.SplittableRandom;

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
     * Faults at random, reproducibly for a seed: each request is faulted with probability
     * {@code rate}, the fault drawn evenly from those that fit it — for a watch 410, cut, stall,
     * 429 and 500; for anything else cut, stall, 429 and 500. Cuts fall within the first
     * {@code maxCutBytes} of the body; stalls last up to {@code maxStall}.
     *
     * @param seed the random seed (print it with a failure to reproduce the run)
     * @param rate the share of requests faulted, 0 to 1
     * @param maxCutBytes the latest point of a cut or stall
     * @param maxStall the longest stall
     * @return the plan
     */
    static FaultPlan random(long seed, double rate, int maxCutBytes, Duration maxStall) {
        SplittableRandom random = new SplittableRandom(seed);
        return request -> {
            SplittableRandom r;
            synchronized (random) {
                r = random.split();
            }
            if (r.nextDouble() >= rate) {
                return new Fault.Pass();
            }
            int choice = r.nextInt(request.isWatch() ? 5 : 4);
            return switch (choice) {
                case 0 -> new Fault.Cut(r.nextInt(maxCutBytes));
                case 1 -> new Fault.Stall(r.nextInt(maxCutBytes), Duration.ofMillis(r.nextLong(maxStall.toMillis() + 1)));
                case 2 -> new Fault.Reject(429, "TooManyRequests", Duration.ofSeconds(1));
                case 3 -> new Fault.Reject(500, "InternalError", Duration.ofSeconds(1));
                default -> new Fault.WatchGone();
            };
        };
    }
}
