package io.kubeloop.it;

import java.util.stream.LongStream;

/**
 * The fault seeds a fault-injection test runs with: one, at random, unless {@code
 * -Dkubeloop.faults.seed=N} names it; with {@code -Dkubeloop.faults.seeds=COUNT}, COUNT consecutive seeds
 * from that one (from 1 when none is named), as {@code tools/reliability/convergence} runs them. Each
 * seed is one run of the test, named by it, so a failure names the seed that replays it.
 */
final class FaultSeeds {

    private FaultSeeds() {}

    /** The seeds, for {@code @MethodSource("io.kubeloop.it.FaultSeeds#seeds")}. */
    static LongStream seeds() {
        Integer count = Integer.getInteger("kubeloop.faults.seeds");
        Long first = Long.getLong("kubeloop.faults.seed");
        if (count == null) {
            return LongStream.of(first != null ? first : System.nanoTime());
        }
        long from = first != null ? first : 1;
        return LongStream.range(from, from + count);
    }
}
