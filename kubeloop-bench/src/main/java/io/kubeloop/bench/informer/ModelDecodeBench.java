package io.kubeloop.bench.informer;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.json.ModelDeserializer;
import io.kubeloop.models.core.v1.Pod;
import java.util.Locale;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A quick measurement of the per-object cost of reading the benchmark's Pods from bytes as kubeloop's own
 * {@link Pod} records (the generated reader over {@link JsonBytesReader}, one reader for all objects, as
 * for one list) beside {@link DynamicObjectReader}'s scanner, in µs per object. Not a JMH benchmark: a few
 * warm-up rounds, then the best of several timed rounds; enough to compare the two paths and to profile
 * the first.
 *
 * <p>Run with {@code java -cp … io.kubeloop.bench.informer.ModelDecodeBench [pods] [rounds]}.
 */
public final class ModelDecodeBench {

    private ModelDecodeBench() {}

    /** Entry point: {@code [pods] [rounds]}. */
    public static void main(String[] args) {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        JsonMapper mapper = KubeJson.mapper();
        JsonMapper lenient = mapper.rebuild()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
        ModelDeserializer<Pod> model = JsonBytesReader.modelOf(Pod.class).orElseThrow();
        byte[][] bytes = PodGenerator.jsonBytes(pods);
        double models = Double.MAX_VALUE;
        double scanner = Double.MAX_VALUE;
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            JsonBytesReader reader = new JsonBytesReader(lenient);
            long t0 = System.nanoTime();
            for (byte[] b : bytes) {
                Pod p = reader.read(model, b, 0, b.length);
                sink += p.metadata().name().length();
            }
            long t1 = System.nanoTime();
            DynamicObjectReader dynamic = new DynamicObjectReader();
            for (byte[] b : bytes) {
                DynamicObject d = dynamic.scan(b, 0, b.length).orElseThrow().object();
                sink += d.key().name().length();
            }
            long t2 = System.nanoTime();
            models = Math.min(models, (t1 - t0) / 1e3 / pods);
            scanner = Math.min(scanner, (t2 - t1) / 1e3 / pods);
        }
        System.out.printf(
                Locale.ROOT,
                "models (Pod records): %.2f µs/object%nDynamicObject scan:   %.2f µs/object%nratio: %.2f (sink %d)%n",
                models,
                scanner,
                models / scanner,
                sink);
    }
}
