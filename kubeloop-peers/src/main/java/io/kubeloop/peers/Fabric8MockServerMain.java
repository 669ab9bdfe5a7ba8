package io.kubeloop.peers;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Runs fabric8's {@code KubernetesMockServer} in CRUD mode over HTTPS in its own JVM, as an
 * independent peer for kubeloop's tests. Started by {@link PeerProcess}; prints
 * {@code READY <url>} on stdout once it listens and stops when its stdin closes.
 *
 * <p>Arguments: {@code --crd group/version/plural/Kind/Namespaced|Cluster}, repeatable, to serve
 * custom resources.
 */
public final class Fabric8MockServerMain {

    private Fabric8MockServerMain() {}

    public static void main(String[] args) throws IOException {
        Peers.quietJavaUtilLogging();
        List<CustomResourceDefinitionContext> crds = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--crd") && i + 1 < args.length) {
                String[] p = args[++i].split("/");
                crds.add(new CustomResourceDefinitionContext.Builder()
                        .withGroup(p[0])
                        .withVersion(p[1])
                        .withPlural(p[2])
                        .withKind(p[3])
                        .withScope(p[4])
                        .build());
            } else {
                System.err.println("unknown argument: " + args[i]);
                System.exit(2);
            }
        }
        KubernetesMockServer server = new KubernetesMockServer(
                new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(crds), true);
        server.init(InetAddress.getLoopbackAddress(), 0);
        String url = server.url("/");
        System.out.println("READY " + url.substring(0, url.length() - 1));
        System.out.flush();
        // Serve until the parent closes our stdin (or dies).
        while (System.in.read() >= 0) {
            // ignore input
        }
        server.destroy();
        System.exit(0);
    }
}
