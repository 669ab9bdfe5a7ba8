package io.kubeloop.apiserver;

import static org.awaitility.Awaitility.await;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.ListerWatcher;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.client.config.ClientConfig;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's informer lives through SIGKILLs of a durable server ({@code --data-dir}) restarted on the
 * same address: its watch breaks, it watches again once the server is back (relisting when the restarted
 * server no longer holds its resourceVersion in its history), and after every restart its cache holds
 * exactly the server's ConfigMaps at their resourceVersions — those written before the kill, and those
 * created, changed and deleted after the restart.
 */
@Timeout(240)
class WatchAcrossSigkillTest {

    private static final int ROUNDS = 2;

    @TempDir
    Path tmp;

    @Test
    void anInformerOfADurableServerFollowsItAcrossEverySigkillAndRestart() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path data = tmp.resolve("data");
        Path kubeconfig = tmp.resolve("kubeconfig");
        Process server = DurableServerMain.launch(data, kubeconfig, tmp.resolve("server-0.err"), port);
        DurableServerMain.awaitReady(server, tmp.resolve("server-0.err"), "first start");
        try (KubeClient client = KubeClient.create(ClientConfig.fromKubeconfig(kubeconfig), ClientOptions.defaults())) {
            ResourceClient<DynamicObject> cms = client.resource("configmaps").inNamespace("default");
            try (SharedIndexInformer<DynamicObject> informer =
                    SharedIndexInformer.create(ListerWatcher.of(cms), InformerOptions.defaults())) {
                informer.start();
                await().atMost(Duration.ofSeconds(30)).until(informer::hasSynced);
                for (int round = 1; round <= ROUNDS; round++) {
                    for (int i = 0; i < 10; i++) {
                        cms.create(configMap("before-" + round + "-" + i), WriteOptions.none());
                    }
                    awaitSame(informer, cms, "round " + round + " before the kill");

                    server.destroyForcibly(); // SIGKILL
                    server.waitFor(10, TimeUnit.SECONDS);
                    Path err = tmp.resolve("server-" + round + ".err");
                    server = DurableServerMain.launch(data, kubeconfig, err, port);
                    DurableServerMain.awaitReady(server, err, "restart " + round);

                    for (int i = 0; i < 5; i++) {
                        cms.create(configMap("after-" + round + "-" + i), WriteOptions.none());
                    }
                    cms.delete("before-" + round + "-0");
                    int restart = round;
                    DynamicObject changed = cms.get("before-" + round + "-1");
                    cms.update(
                            changed.edit(o -> o.putObject("data").put("changed", "after restart " + restart)),
                            WriteOptions.none());
                    awaitSame(informer, cms, "round " + round + " after the restart");
                }
            }
        } finally {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static DynamicObject configMap(String name) {
        return DynamicObject.of("v1", "ConfigMap", ObjectMeta.of("default", name));
    }

    private static void awaitSame(
            SharedIndexInformer<DynamicObject> informer, ResourceClient<DynamicObject> cms, String when) {
        await().alias(when)
                .atMost(Duration.ofSeconds(60))
                .until(() -> versions(informer.indexer().list())
                        .equals(versions(cms.list(ListOptions.none()).items())));
    }

    private static Map<String, String> versions(Collection<DynamicObject> objects) {
        Map<String, String> m = new TreeMap<>();
        objects.forEach(o -> m.put(o.metadata().name(), o.metadata().resourceVersion()));
        return m;
    }
}
