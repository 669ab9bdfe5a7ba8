package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.json.KubeJson;
import java.util.Locale;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.json.JsonMapper;

/**
 * A quick measurement of the per-object cost of compact decoding: the benchmark's Pods, serialized once, decoded
 * by {@link DynamicObjectReader}'s Jackson streaming walk and by its scanner path, in µs per object. Not a JMH
 * benchmark: a few warm-up rounds, then the best of several timed rounds; enough to compare the two paths.
 *
 * <p>Run with {@code java -cp … io.kubeloop.bench.informer.CompactDecodeBench [pods] [rounds]}.
 */
public final class CompactDecodeBench {

    private CompactDecodeBench() {}

    /** Entry point: {@code [pods] [rounds]}. */
    public static void main(String[] args) {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        JsonMapper mapper = KubeJson.mapper();
        byte[][] bytes = PodGenerator.jsonBytes(pods);
        double jackson = Double.MAX_VALUE;
        double scanner = Double.MAX_VALUE;
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            DynamicObjectReader reader = new DynamicObjectReader();
            long t0 = System.nanoTime();
            for (byte[] b : bytes) {
                try (JsonParser p = mapper.createParser(b)) {
                    p.nextToken();
                    DynamicObject d = reader.read(p, b, 0);
                    sink += d.kind().length() + d.key().name().length();
                }
            }
            long t1 = System.nanoTime();
            for (byte[] b : bytes) {
                DynamicObject d = reader.scan(b, 0, b.length).orElseThrow().object();
                sink += d.kind().length() + d.key().name().length();
            }
            long t2 = System.nanoTime();
            jackson = Math.min(jackson, (t1 - t0) / 1e3 / pods);
            scanner = Math.min(scanner, (t2 - t1) / 1e3 / pods);
        }
        System.out.printf(
                Locale.ROOT,
                "jackson streaming walk: %.2f µs/object%nscanner:                %.2f µs/object"
                        + "%nspeed-up: %.1fx (sink %d)%n",
                jackson,
                scanner,
                jackson / scanner,
                sink);
    }
}
