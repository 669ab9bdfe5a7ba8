package io.kubeloop.bench.wire;

import com.google.protobuf.ByteString;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.internal.DynamicObjectReader;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.api.json.ModelDeserializer;
import io.kubeloop.bench.informer.PodGenerator;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.ToLongFunction;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a Pod costs to read in each wire format a client can ask kube-apiserver for: its size as compact
 * JSON and as protobuf ({@code application/vnd.kubernetes.protobuf}: the {@code k8s\0} magic and a
 * {@code runtime.Unknown} envelope around the Pod message, as client-go receives it), and the time and
 * allocation to decode it into what a client then holds:
 * <ul>
 *   <li>protobuf into the generated {@code V1.Pod} message (what kubernetes-client/java's protobuf
 *       support gives);</li>
 *   <li>JSON into kubeloop's {@code DynamicObject} by its byte scanner (what kubeloop's informers
 *       hold);</li>
 *   <li>JSON into kubeloop's immutable {@code io.kubeloop.models.core.v1.Pod} record by its generated
 *       byte reader (a typed informer's objects), a new reader per round as per list or watch stream;</li>
 *   <li>JSON into fabric8's {@code Pod} by Jackson databind.</li>
 * </ul>
 * The Pods are {@link PodGenerator}'s (about 3.9 KB of JSON each). Not a JMH benchmark: warm-up rounds,
 * then the best of several timed rounds, single-threaded; allocation from the JVM's per-thread counter.
 *
 * <p>Run with {@code java -cp … io.kubeloop.bench.wire.WireFormatBench [pods] [rounds]}.
 */
public final class WireFormatBench {

    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private WireFormatBench() {}

    /** One decoder's figures: best µs per object and bytes allocated per object in that round. */
    private record Figures(double micros, double allocated) {}

    /** Entry point: {@code [pods] [rounds]}. */
    public static void main(String[] args) throws Exception {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        JsonMapper mapper = KubeJson.mapper();
        byte[][] json = new byte[pods][];
        byte[][] proto = new byte[pods][];
        long jsonBytes = 0;
        long protoBytes = 0;
        for (int i = 0; i < pods; i++) {
            var pod = PodGenerator.pod(i);
            json[i] = mapper.writeValueAsBytes(pod);
            byte[] message = ProtoPods.encode(pod, V1.Pod.getDescriptor()).toByteArray();
            byte[] envelope = Runtime.Unknown.newBuilder()
                    .setTypeMeta(
                            Runtime.TypeMeta.newBuilder().setApiVersion("v1").setKind("Pod"))
                    .setRaw(ByteString.copyFrom(message))
                    .build()
                    .toByteArray();
            proto[i] = new byte[MAGIC.length + envelope.length];
            System.arraycopy(MAGIC, 0, proto[i], 0, MAGIC.length);
            System.arraycopy(envelope, 0, proto[i], MAGIC.length, envelope.length);
            jsonBytes += json[i].length;
            protoBytes += proto[i].length;
        }
        // the protobuf copy holds the same Pod: decoding it back gives the same name and containers
        V1.Pod check = V1.Pod.parseFrom(Runtime.Unknown.parseFrom(
                        java.nio.ByteBuffer.wrap(proto[0], MAGIC.length, proto[0].length - MAGIC.length))
                .getRaw());
        if (!check.getMetadata().getName().equals(PodGenerator.name(0))
                || check.getSpec().getContainersCount() != 2) {
            throw new IllegalStateException("the protobuf Pod differs from the JSON one");
        }
        System.out.printf(
                Locale.ROOT,
                "%d pods: %.0f bytes of JSON each, %.0f bytes of protobuf each (%.2fx)%n",
                pods,
                (double) jsonBytes / pods,
                (double) protoBytes / pods,
                (double) protoBytes / jsonBytes);
        DynamicObjectReader reader = new DynamicObjectReader();
        Figures protobuf = measure(pods, rounds, proto, b -> {
            try {
                Runtime.Unknown u =
                        Runtime.Unknown.parseFrom(java.nio.ByteBuffer.wrap(b, MAGIC.length, b.length - MAGIC.length));
                return V1.Pod.parseFrom(u.getRaw()).getMetadata().getName().length();
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
            }
        });
        Figures scanner = measure(pods, rounds, json, b -> {
            DynamicObject d = reader.scan(b, 0, b.length).orElseThrow().object();
            return d.key().name().length();
        });
        JsonBytesReader[] stream = new JsonBytesReader[1];
        ModelDeserializer<io.kubeloop.models.core.v1.Pod> model =
                JsonBytesReader.modelOf(io.kubeloop.models.core.v1.Pod.class).orElseThrow();
        Figures models = measure(pods, rounds, json, b -> {
            if (b == json[0]) {
                stream[0] = new JsonBytesReader(mapper); // one stream per round, as one list or watch
            }
            return stream[0].read(model, b, 0, b.length).metadata().name().length();
        });
        Figures fabric8 = measure(
                pods,
                rounds,
                json,
                b -> mapper.readValue(b, io.fabric8.kubernetes.api.model.Pod.class)
                        .getMetadata()
                        .getName()
                        .length());
        System.out.println();
        System.out.println("| decode one Pod | µs | allocated bytes |");
        System.out.println("|---|---|---|");
        row("protobuf → V1.Pod message", protobuf);
        row("JSON → kubeloop DynamicObject (scanner)", scanner);
        row("JSON → kubeloop models Pod (generated byte reader)", models);
        row("JSON → fabric8 Pod (Jackson databind)", fabric8);
    }

    private static void row(String label, Figures f) {
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.0f |%n", label, f.micros(), f.allocated());
    }

    private static Figures measure(int pods, int rounds, byte[][] input, ToLongFunction<byte[]> decode) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long me = Thread.currentThread().threadId();
        double best = Double.MAX_VALUE;
        double allocated = 0;
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            long a0 = threads.getThreadAllocatedBytes(me);
            long t0 = System.nanoTime();
            for (byte[] b : input) {
                sink += decode.applyAsLong(b);
            }
            long t1 = System.nanoTime();
            long a1 = threads.getThreadAllocatedBytes(me);
            double micros = (t1 - t0) / 1e3 / pods;
            if (micros < best) {
                best = micros;
                allocated = (double) (a1 - a0) / pods;
            }
        }
        if (sink == 0) {
            throw new IllegalStateException("nothing decoded");
        }
        return new Figures(best, allocated);
    }
}
