package io.kubeloop.bench.faults;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ApiException;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.ResourceEventHandler;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.DeleteOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.peers.InformerEvents;
import io.kubeloop.peers.InformerPeer;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import io.kubeloop.testing.faults.FaultPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * kubeloop's, fabric8's and kubernetes-client/java's informers side by side through one
 * {@link FaultInjectingProxy} (cut responses, stalls, 429/500, watch 410s, watches ended by the
 * server every few seconds) while ConfigMaps change on the server; then, for each, whether and when
 * its handler-fed view equals the server's state. A harness, not a test: it reports what the peers do.
 *
 * <p>Arguments: {@code [SECONDS of writes, default 30] [SEED] [RATE of faulted requests, default 0.3]
 * [MAX_WATCH seconds a watch may last, default 2]}.
 * Needs {@code -Dkubeloop.peers.classpath=kubeloop-peers/target/peer.classpath} for the peers' JVMs.
 */
public final class InformerFaultComparison {

    private static final String NS = "faults";
    private static final int NAMES = 60;

    private InformerFaultComparison() {}

    /** One informer under test: its name and its current view (name → data line). */
    private record Contender(String name, Supplier<Map<String, String>> view, AutoCloseable resource) {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime();
        double rate = args.length > 2 ? Double.parseDouble(args[2]) : 0.3;
        int maxWatchSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        System.out.printf(
                "informers through the fault proxy: %d s of writes, %.0f %% of requests faulted, watches of"
                        + " at most %d s, seed %d%n",
                seconds, rate * 100, maxWatchSeconds, seed);
        Path dir = Files.createTempDirectory("kubeloop-faults");
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                FaultInjectingProxy proxy = FaultInjectingProxy.start(
                        server, FaultPlan.random(seed, rate, 16 * 1024, Duration.ofSeconds(1)))) {
            proxy.maxWatch(Duration.ofSeconds(maxWatchSeconds));
            KubeClient direct = KubeClient.create(
                    server.clientConfig(),
                    ClientOptions.builder().rateLimitingEnabled(false).build());
            direct.resource(
                            new GroupVersionResource("", "v1", "namespaces"),
                            ResourceScope.CLUSTER,
                            DynamicObject.class)
                    .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, NS)), WriteOptions.none());
            ResourceClient<DynamicObject> cms = direct.resource(
                            new GroupVersionResource("", "v1", "configmaps"),
                            ResourceScope.NAMESPACED,
                            DynamicObject.class)
                    .inNamespace(NS);
            Path kubeconfig = proxy.writeKubeconfig(dir.resolve("kubeconfig"));

            List<Contender> contenders = new ArrayList<>();
            contenders.add(kubeloop(proxy));
            contenders.add(peer(InformerPeer.fabric8ConfigMaps(kubeconfig, NS, true), "fabric8 (HTTP watches)"));
            contenders.add(peer(InformerPeer.fabric8ConfigMaps(kubeconfig, NS, false), "fabric8 (WebSocket watches)"));
            contenders.add(peer(InformerPeer.kubernetesClientJavaConfigMaps(kubeconfig, NS), "kubernetes-client/java"));
            Thread.sleep(5_000); // let them start and list (through the faults too)

            SplittableRandom random = new SplittableRandom(seed);
            long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
            int writes = 0;
            while (System.nanoTime() < end) {
                String name = "cm-" + random.nextInt(NAMES);
                try {
                    switch (random.nextInt(3)) {
                        case 0 ->
                            cms.create(DynamicObject.parse(
                                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":" + "{\"name\":\""
                                            + name + "\",\"namespace\":\"" + NS + "\"},\"data\":{\"v\":\"0\"}}"));
                        case 1 ->
                            cms.update(cms.get(name)
                                    .edit(n -> n.putObject("data").put("v", Integer.toString(random.nextInt(1000)))));
                        default -> cms.delete(name, DeleteOptions.none());
                    }
                    writes++;
                } catch (ApiException expected) {
                    // AlreadyExists, NotFound, Conflict
                }
                Thread.sleep(random.nextInt(10));
            }
            Map<String, String> expected = new HashMap<>();
            for (DynamicObject o : cms.list().items()) {
                expected.put(o.metadata().name(), data(o));
            }
            System.out.printf(
                    "%d writes; %d ConfigMaps at the end; faults injected %s%n",
                    writes, expected.size(), proxy.injected());

            long lastWrite = System.nanoTime();
            Map<String, Long> convergedAfter = new LinkedHashMap<>();
            long deadline = lastWrite + Duration.ofSeconds(120).toNanos();
            while (System.nanoTime() < deadline && convergedAfter.size() < contenders.size()) {
                for (Contender c : contenders) {
                    if (!convergedAfter.containsKey(c.name()) && c.view().get().equals(expected)) {
                        convergedAfter.put(c.name(), (System.nanoTime() - lastWrite) / 1_000_000);
                    }
                }
                Thread.sleep(100);
            }
            System.out.printf("%-30s %s%n", "INFORMER", "RESULT");
            for (Contender c : contenders) {
                Long ms = convergedAfter.get(c.name());
                if (ms != null) {
                    System.out.printf("%-30s converged %d ms after the last write%n", c.name(), ms);
                } else {
                    Map<String, String> view = c.view().get();
                    int wrong = 0;
                    for (String key : union(view, expected)) {
                        if (!java.util.Objects.equals(view.get(key), expected.get(key))) {
                            wrong++;
                        }
                    }
                    System.out.printf(
                            "%-30s NOT converged after 120 s: %d of %d objects differ%n",
                            c.name(), wrong, Math.max(view.size(), expected.size()));
                }
            }
            for (Contender c : contenders) {
                c.resource().close();
            }
            direct.close();
        }
    }

    private static java.util.Set<String> union(Map<String, String> a, Map<String, String> b) {
        java.util.Set<String> keys = new java.util.TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }

    /** The data of a ConfigMap as the peers print it ({@link InformerEvents#line}). */
    private static String data(DynamicObject o) {
        Map<String, String> data = new TreeMap<>();
        o.node()
                .path("data")
                .properties()
                .forEach(e -> data.put(e.getKey(), e.getValue().asString()));
        String line = InformerEvents.line("X", "n", data);
        return line.substring("X n ".length());
    }

    private static Contender kubeloop(FaultInjectingProxy proxy) {
        KubeClient client = KubeClient.create(proxy.clientConfig(), ClientOptions.defaults());
        SharedIndexInformer<DynamicObject> informer = SharedIndexInformer.create(
                ListerWatcher.of(client.resource(
                                new GroupVersionResource("", "v1", "configmaps"),
                                ResourceScope.NAMESPACED,
                                DynamicObject.class)
                        .inNamespace(NS)),
                InformerOptions.defaults());
        Map<String, String> view = new ConcurrentHashMap<>();
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(DynamicObject o, boolean initial) {
                view.put(o.metadata().name(), data(o));
            }

            @Override
            public void onUpdate(DynamicObject old, DynamicObject o) {
                view.put(o.metadata().name(), data(o));
            }

            @Override
            public void onDelete(DynamicObject o, boolean unknown) {
                view.remove(o.metadata().name());
            }
        });
        informer.start();
        return new Contender("kubeloop", () -> Map.copyOf(view), () -> {
            informer.close();
            client.close();
        });
    }

    /** A peer's view, rebuilt from the ADD/UPDATE/DELETE lines it printed. */
    private static Contender peer(InformerPeer peer, String name) {
        return new Contender(
                name,
                () -> {
                    Map<String, String> view = new HashMap<>();
                    for (String line : peer.lines()) {
                        String[] parts = line.split(" ", 3);
                        if (parts.length == 3 && (parts[0].equals("ADD") || parts[0].equals("UPDATE"))) {
                            view.put(parts[1], parts[2]);
                        } else if (parts.length == 3 && parts[0].equals("DELETE")) {
                            view.remove(parts[1]);
                        }
                    }
                    return view;
                },
                peer);
    }
}
