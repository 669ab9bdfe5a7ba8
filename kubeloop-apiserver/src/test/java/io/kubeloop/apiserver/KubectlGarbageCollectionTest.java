package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubectl on PATH deleting with each {@code --cascade} mode and deleting node-bound Pods: kubectl waits
 * for the deleted object to vanish, so these runs also show that the server's garbage collector and pod
 * grace handling let {@code kubectl delete} return. Skipped when no kubectl is on PATH.
 */
class KubectlGarbageCollectionTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    @TempDir
    static Path dir;

    static Kubectl kubectl;

    @BeforeAll
    static void setUp() {
        EmbeddedApiServer server =
                shared = EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
        Path binary = Kubectl.onPath().orElse(null);
        assumeTrue(binary != null, "no kubectl on PATH: skipped");
        kubectl = new Kubectl(binary, "PATH", server.writeKubeconfig(dir.resolve("kubeconfig")), dir.resolve("cache"));
    }

    private static void create(String yaml) throws IOException {
        Path f = Files.createTempFile(dir, "obj", ".yaml");
        Files.writeString(f, yaml);
        kubectl.ok("create", "-f", f.toString());
    }

    private static String uid(String resource) {
        return kubectl.ok("get", resource, "-o", "jsonpath={.metadata.uid}").trim();
    }

    private static String owner(String apiVersion, String kind, String name, String uid) {
        return """
                  ownerReferences:
                  - apiVersion: %s
                    kind: %s
                    name: %s
                    uid: %s
                    controller: true
                    blockOwnerDeletion: true
                """.formatted(apiVersion, kind, name, uid);
    }

    /** A Deployment {@code name} owning ReplicaSet {@code name-1} owning two unbound Pods. */
    private static void deploymentWithReplicaSetAndPods(String name) throws IOException {
        create("""
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                spec:
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec: {containers: [{name: main, image: nginx}]}
                """.formatted(name, name, name));
        create("""
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata:
                  name: %s-1
                %s
                spec:
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec: {containers: [{name: main, image: nginx}]}
                """.formatted(name, owner("apps/v1", "Deployment", name, uid("deployment/" + name)), name, name));
        String rsUid = uid("replicaset/" + name + "-1");
        for (String p : new String[] {"a", "b"}) {
            create("""
                    apiVersion: v1
                    kind: Pod
                    metadata:
                      name: %s-1-%s
                      labels: {app: %s}
                    %s
                    spec: {containers: [{name: main, image: nginx}]}
                    """.formatted(name, p, name, owner("apps/v1", "ReplicaSet", name + "-1", rsUid)));
        }
    }

    @Test
    void cascadeForegroundReturnsWithTheReplicaSetAndPodsAlreadyGone() throws IOException {
        deploymentWithReplicaSetAndPods("fg");
        kubectl.ok("delete", "deployment", "fg", "--cascade=foreground");
        assertThat(kubectl.ok("get", "replicasets,pods", "-l", "app=fg", "-o", "name")
                        .trim())
                .isEmpty();
        assertThat(kubectl.run("get", "deployment", "fg").code()).isNotZero();
    }

    @Test
    void cascadeOrphanLeavesTheReplicaSetWithoutItsOwner() throws IOException {
        deploymentWithReplicaSetAndPods("orph");
        kubectl.ok("delete", "deployment", "orph", "--cascade=orphan");
        assertThat(kubectl.ok("get", "replicaset", "orph-1", "-o", "jsonpath={.metadata.ownerReferences}")
                        .trim())
                .isEmpty();
        assertThat(kubectl.ok("get", "pods", "-l", "app=orph", "-o", "name").lines())
                .hasSize(2);
    }

    @Test
    void deletingANodeBoundPodReturnsOnceItsGracePeriodIsOver() throws IOException {
        create("""
                apiVersion: v1
                kind: Pod
                metadata: {name: bound}
                spec:
                  nodeName: node-1
                  terminationGracePeriodSeconds: 1
                  containers: [{name: main, image: nginx}]
                """);
        long start = System.nanoTime();
        kubectl.ok("delete", "pod", "bound");
        assertThat((System.nanoTime() - start) / 1_000_000_000.0).isLessThan(20);
        assertThat(kubectl.run("get", "pod", "bound").code()).isNotZero();
    }

    @Test
    void forceDeleteWithGraceZeroRemovesABoundPodAtOnce() throws IOException {
        create("""
                apiVersion: v1
                kind: Pod
                metadata: {name: forced}
                spec:
                  nodeName: node-1
                  containers: [{name: main, image: nginx}]
                """);
        kubectl.ok("delete", "pod", "forced", "--force", "--grace-period=0");
        assertThat(kubectl.run("get", "pod", "forced").code()).isNotZero();
    }
}
