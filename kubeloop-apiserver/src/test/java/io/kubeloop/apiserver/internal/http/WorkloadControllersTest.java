package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * The simulated cluster's workload controllers over real HTTPS: Deployments roll out through ReplicaSets to
 * Pods that the scheduler binds and the simulated kubelet runs, with kube-controller-manager's revisions,
 * limits and conditions.
 */
class WorkloadControllersTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    private static final Duration WAIT = Duration.ofSeconds(20);

    static RawHttp http;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        http = new RawHttp(embedded);
    }

    private static String deployment(String name, int replicas, String image, String specExtra, String annotations) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s"},
                 "spec":{"replicas":%d,%s"selector":{"matchLabels":{"app":"%s"}},
                  "template":{"metadata":{"labels":{"app":"%s"}%s},
                   "spec":{"containers":[{"name":"c","image":"%s"}]}}}}
                """.formatted(
                        name,
                        replicas,
                        specExtra == null ? "" : specExtra + ",",
                        name,
                        name,
                        annotations == null ? "" : ",\"annotations\":" + annotations,
                        image);
    }

    private static JsonNode create(String path, String body) {
        HttpResponse<String> r = http.post(path, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r);
    }

    private static JsonNode get(String path) {
        return RawHttp.json(http.get(path));
    }

    private static List<JsonNode> items(String path) {
        List<JsonNode> out = new ArrayList<>();
        get(path).path("items").forEach(out::add);
        return out;
    }

    private static JsonNode awaitObject(String path, Predicate<JsonNode> done) {
        JsonNode[] seen = new JsonNode[1];
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
            seen[0] = get(path);
            return done.test(seen[0]);
        });
        return seen[0];
    }

    private static boolean rolledOut(JsonNode d, int replicas) {
        JsonNode s = d.path("status");
        return s.path("observedGeneration").asLong(-1)
                        == d.path("metadata").path("generation").asLong()
                && s.path("updatedReplicas").asInt(0) == replicas
                && s.path("replicas").asInt(0) == replicas
                && s.path("availableReplicas").asInt(0) == replicas;
    }

    private static JsonNode condition(JsonNode object, String type) {
        for (JsonNode c : object.path("status").path("conditions")) {
            if (c.path("type").asString().equals(type)) {
                return c;
            }
        }
        return MissingNode.getInstance();
    }

    private static List<JsonNode> activePods(String ns, String app) {
        return items("/api/v1/namespaces/" + ns + "/pods?labelSelector=app%3D" + app).stream()
                .filter(p -> !p.path("metadata").has("deletionTimestamp"))
                .toList();
    }

    @Test
    void aDeploymentRollsOutThroughAReplicaSetToRunningReadyPodsWithIps() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(path, deployment("web", 3, "nginx", null, null));

        JsonNode d = awaitObject(path + "/web", o -> rolledOut(o, 3));
        assertThat(d.path("metadata")
                        .path("annotations")
                        .path("deployment.kubernetes.io/revision")
                        .asString())
                .isEqualTo("1");
        assertThat(condition(d, "Available").path("status").asString()).isEqualTo("True");
        assertThat(condition(d, "Available").path("reason").asString()).isEqualTo("MinimumReplicasAvailable");
        List<JsonNode> sets = items("/apis/apps/v1/namespaces/" + ns + "/replicasets");
        assertThat(sets).hasSize(1);
        JsonNode rs = sets.getFirst();
        String hash =
                rs.path("metadata").path("labels").path("pod-template-hash").asString();
        assertThat(hash).matches("[bcdfghjklmnpqrstvwxz2456789]{6,10}");
        assertThat(rs.path("metadata").path("name").asString()).isEqualTo("web-" + hash);
        assertThat(rs.path("metadata")
                        .path("annotations")
                        .path("deployment.kubernetes.io/revision")
                        .asString())
                .isEqualTo("1");
        assertThat(rs.path("metadata")
                        .path("ownerReferences")
                        .get(0)
                        .path("uid")
                        .asString())
                .isEqualTo(d.path("metadata").path("uid").asString());
        assertThat(rs.path("spec")
                        .path("selector")
                        .path("matchLabels")
                        .path("pod-template-hash")
                        .asString())
                .isEqualTo(hash);
        assertThat(condition(d, "Progressing").path("reason").asString()).isEqualTo("NewReplicaSetAvailable");
        assertThat(condition(d, "Progressing").path("message").asString())
                .isEqualTo("ReplicaSet \"web-" + hash + "\" has successfully progressed.");

        List<JsonNode> pods = activePods(ns, "web");
        assertThat(pods).hasSize(3);
        Set<String> ips = new HashSet<>();
        for (JsonNode p : pods) {
            assertThat(p.path("metadata").path("name").asString()).startsWith("web-" + hash + "-");
            assertThat(p.path("spec").path("nodeName").asString()).isEqualTo("kubeloop-node-1");
            JsonNode s = p.path("status");
            assertThat(s.path("phase").asString()).isEqualTo("Running");
            assertThat(s.path("qosClass").asString()).isEqualTo("BestEffort");
            assertThat(s.path("hostIP").asString()).isEqualTo("172.18.0.2");
            assertThat(s.path("podIP").asString()).startsWith("10.244.0.");
            ips.add(s.path("podIP").asString());
            assertThat(condition(p, "Ready").path("status").asString()).isEqualTo("True");
            assertThat(condition(p, "PodScheduled").path("status").asString()).isEqualTo("True");
            JsonNode cs = s.path("containerStatuses").get(0);
            assertThat(cs.path("ready").asBoolean()).isTrue();
            assertThat(cs.path("image").asString()).isEqualTo("docker.io/library/nginx:latest");
            assertThat(cs.path("containerID").asString()).startsWith("containerd://");
            assertThat(cs.path("state").has("running")).isTrue();
        }
        assertThat(ips).as("distinct Pod IPs").hasSize(3);

        await().atMost(WAIT).untilAsserted(() -> {
            List<JsonNode> events = items("/api/v1/namespaces/" + ns + "/events");
            assertThat(events)
                    .extracting(e -> e.path("reason").asString())
                    .contains("ScalingReplicaSet", "SuccessfulCreate", "Scheduled", "Pulled", "Created", "Started");
            assertThat(events)
                    .extracting(e -> e.path("message").asString())
                    .contains("Scaled up replica set web-" + hash + " from 0 to 3")
                    .anyMatch(m ->
                            m.matches("Successfully assigned " + ns + "/web-" + hash + "-\\w+ to kubeloop-node-1"));
            JsonNode scaling = events.stream()
                    .filter(e -> e.path("reason").asString().equals("ScalingReplicaSet"))
                    .findFirst()
                    .orElseThrow();
            assertThat(scaling.path("involvedObject").path("kind").asString()).isEqualTo("Deployment");
            assertThat(scaling.path("source").path("component").asString()).isEqualTo("deployment-controller");
            assertThat(scaling.path("type").asString()).isEqualTo("Normal");
        });
    }

    @Test
    void aDeletedPodIsReplacedByItsReplicaSet() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(path, deployment("web", 2, "nginx", null, null));
        awaitObject(path + "/web", o -> rolledOut(o, 2));
        String victim =
                activePods(ns, "web").getFirst().path("metadata").path("name").asString();

        HttpResponse<String> deleted = http.delete("/api/v1/namespaces/" + ns + "/pods/" + victim);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);

        await().atMost(WAIT).untilAsserted(() -> {
            List<JsonNode> pods = items("/api/v1/namespaces/" + ns + "/pods");
            assertThat(pods)
                    .extracting(p -> p.path("metadata").path("name").asString())
                    .doesNotContain(victim);
            assertThat(pods)
                    .hasSize(2)
                    .allMatch(
                            p -> condition(p, "Ready").path("status").asString().equals("True"));
        });
    }

    @Test
    void aTemplateChangeRollsToTheNextRevisionWithinMaxSurgeAndMaxUnavailable() throws Exception {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(
                path,
                deployment(
                        "web",
                        4,
                        "nginx:1.26",
                        "\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":1,\"maxUnavailable\":0}}",
                        null));
        awaitObject(path + "/web", o -> rolledOut(o, 4));

        AtomicInteger mostPods = new AtomicInteger();
        AtomicInteger fewestReady = new AtomicInteger(Integer.MAX_VALUE);
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (sampling.get()) {
                List<JsonNode> pods = activePods(ns, "web");
                mostPods.accumulateAndGet(pods.size(), Math::max);
                long ready = pods.stream()
                        .filter(p ->
                                condition(p, "Ready").path("status").asString().equals("True"))
                        .count();
                fewestReady.accumulateAndGet((int) ready, Math::min);
            }
        });
        HttpResponse<String> patched = http.patch(
                path + "/web",
                "application/strategic-merge-patch+json",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.27\"}]}}}}");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        JsonNode d = awaitObject(path + "/web", o -> rolledOut(o, 4));
        sampling.set(false);
        sampler.join();

        assertThat(d.path("metadata")
                        .path("annotations")
                        .path("deployment.kubernetes.io/revision")
                        .asString())
                .isEqualTo("2");
        List<JsonNode> sets = items("/apis/apps/v1/namespaces/" + ns + "/replicasets");
        assertThat(sets).hasSize(2);
        for (JsonNode rs : sets) {
            String revision = rs.path("metadata")
                    .path("annotations")
                    .path("deployment.kubernetes.io/revision")
                    .asString();
            String image = rs.path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .get(0)
                    .path("image")
                    .asString();
            assertThat(rs.path("spec").path("replicas").asInt()).isEqualTo(revision.equals("2") ? 4 : 0);
            assertThat(image).isEqualTo(revision.equals("2") ? "nginx:1.27" : "nginx:1.26");
            assertThat(rs.path("metadata")
                            .path("annotations")
                            .path("deployment.kubernetes.io/max-replicas")
                            .asString())
                    .isEqualTo("5");
        }
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(activePods(ns, "web"))
                        .hasSize(4)
                        .allMatch(p -> p.path("spec")
                                .path("containers")
                                .get(0)
                                .path("image")
                                .asString()
                                .equals("nginx:1.27")));
        assertThat(mostPods.get())
                .as("never more than replicas + maxSurge Pods")
                .isLessThanOrEqualTo(5);
        assertThat(fewestReady.get())
                .as("never fewer than replicas - maxUnavailable ready")
                .isGreaterThanOrEqualTo(4);
    }

    @Test
    void recreateStopsEveryOldPodBeforeANewOneIsCreated() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(path, deployment("web", 2, "nginx:1.26", "\"strategy\":{\"type\":\"Recreate\"}", null));
        awaitObject(path + "/web", o -> rolledOut(o, 2));
        List<JsonNode> oldPods = activePods(ns, "web");

        http.patch(
                path + "/web",
                "application/strategic-merge-patch+json",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.27\"}]}}}}");
        awaitObject(path + "/web", o -> rolledOut(o, 2));

        List<JsonNode> newPods = activePods(ns, "web");
        String lastOldCreated = oldPods.stream()
                .map(p -> p.path("metadata").path("creationTimestamp").asString())
                .max(String::compareTo)
                .orElseThrow();
        assertThat(newPods).hasSize(2).allSatisfy(p -> {
            assertThat(p.path("spec").path("containers").get(0).path("image").asString())
                    .isEqualTo("nginx:1.27");
            assertThat(p.path("metadata").path("creationTimestamp").asString()).isGreaterThanOrEqualTo(lastOldCreated);
        });
        List<JsonNode> pods = items("/api/v1/namespaces/" + ns + "/pods");
        assertThat(pods).as("old Pods are gone").hasSize(2);
    }

    @Test
    void aRolloutWhosePodsNeverBecomeReadyExceedsItsProgressDeadline() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(
                path,
                deployment(
                        "stuck",
                        1,
                        "nginx",
                        "\"progressDeadlineSeconds\":1",
                        "{\"sim.kubeloop.io/not-ready\":\"true\"}"));

        JsonNode d = awaitObject(
                path + "/stuck",
                o -> condition(o, "Progressing").path("reason").asString().equals("ProgressDeadlineExceeded"));
        JsonNode progressing = condition(d, "Progressing");
        assertThat(progressing.path("status").asString()).isEqualTo("False");
        assertThat(progressing.path("message").asString())
                .matches("ReplicaSet \"stuck-[a-z0-9]+\" has timed out progressing\\.");
        assertThat(condition(d, "Available").path("status").asString()).isEqualTo("False");
        assertThat(d.path("status").path("unavailableReplicas").asInt()).isEqualTo(1);
        JsonNode pod = activePods(ns, "stuck").getFirst();
        assertThat(pod.path("status").path("phase").asString()).isEqualTo("Running");
        assertThat(condition(pod, "Ready").path("reason").asString()).isEqualTo("ContainersNotReady");
    }

    @Test
    void aPausedDeploymentKeepsItsReplicaSetUntilResumed() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(path, deployment("web", 1, "nginx:1.26", null, null));
        awaitObject(path + "/web", o -> rolledOut(o, 1));

        http.patch(path + "/web", "application/merge-patch+json", "{\"spec\":{\"paused\":true}}");
        awaitObject(
                path + "/web",
                o -> condition(o, "Progressing").path("reason").asString().equals("DeploymentPaused"));
        http.patch(
                path + "/web",
                "application/strategic-merge-patch+json",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.27\"}]}}}}");
        awaitObject(
                path + "/web", o -> o.path("status").path("observedGeneration").asLong() == 3);
        assertThat(items("/apis/apps/v1/namespaces/" + ns + "/replicasets")).hasSize(1);

        http.patch(path + "/web", "application/merge-patch+json", "{\"spec\":{\"paused\":null}}");
        JsonNode d = awaitObject(
                path + "/web",
                o -> rolledOut(o, 1)
                        && o.path("metadata")
                                .path("annotations")
                                .path("deployment.kubernetes.io/revision")
                                .asString()
                                .equals("2"));
        assertThat(condition(d, "Progressing").path("reason").asString()).isEqualTo("NewReplicaSetAvailable");
        assertThat(items("/apis/apps/v1/namespaces/" + ns + "/replicasets")).hasSize(2);
    }

    @Test
    void oldReplicaSetsBeyondTheRevisionHistoryLimitAreDeleted() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        create(path, deployment("web", 1, "nginx:1.25", "\"revisionHistoryLimit\":1", null));
        for (String tag : List.of("1.26", "1.27")) {
            awaitObject(path + "/web", o -> rolledOut(o, 1));
            http.patch(
                    path + "/web",
                    "application/strategic-merge-patch+json",
                    "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:" + tag
                            + "\"}]}}}}");
        }
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(items("/apis/apps/v1/namespaces/" + ns + "/replicasets"))
                        .extracting(rs -> rs.path("metadata")
                                .path("annotations")
                                .path("deployment.kubernetes.io/revision")
                                .asString())
                        .containsExactlyInAnyOrder("2", "3"));
    }

    @Test
    void podsThatDoNotRestartAlwaysRunToCompletionOrFailWithTheirExitCode() {
        String ns = http.newNamespace("wl");
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        String pod = """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","annotations":{%s}},
                 "spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}
                """;
        create(pods, pod.formatted("ok", "\"sim.kubeloop.io/run-time\":\"200ms\""));
        create(
                pods,
                pod.formatted("bad", "\"sim.kubeloop.io/run-time\":\"200ms\",\"sim.kubeloop.io/exit-code\":\"3\""));

        JsonNode ok = awaitObject(
                pods + "/ok", p -> p.path("status").path("phase").asString().equals("Succeeded"));
        JsonNode okState =
                ok.path("status").path("containerStatuses").get(0).path("state").path("terminated");
        assertThat(okState.path("exitCode").asInt()).isZero();
        assertThat(okState.path("reason").asString()).isEqualTo("Completed");
        assertThat(condition(ok, "Ready").path("reason").asString()).isEqualTo("PodCompleted");

        JsonNode bad = awaitObject(
                pods + "/bad", p -> p.path("status").path("phase").asString().equals("Failed"));
        JsonNode badState = bad.path("status")
                .path("containerStatuses")
                .get(0)
                .path("state")
                .path("terminated");
        assertThat(badState.path("exitCode").asInt()).isEqualTo(3);
        assertThat(badState.path("reason").asString()).isEqualTo("Error");
    }

    @Test
    void aContainerThatExitsUnderRestartAlwaysIsInCrashLoopBackOff() {
        String ns = http.newNamespace("wl");
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        create(pods, """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"crash","annotations":{"sim.kubeloop.io/exit-code":"1"}},
                 "spec":{"containers":[{"name":"c","image":"busybox"}]}}
                """);
        JsonNode p = awaitObject(pods + "/crash", o -> o.path("status").has("containerStatuses"));
        JsonNode cs = p.path("status").path("containerStatuses").get(0);
        assertThat(p.path("status").path("phase").asString()).isEqualTo("Running");
        assertThat(cs.path("state").path("waiting").path("reason").asString()).isEqualTo("CrashLoopBackOff");
        assertThat(cs.path("lastState").path("terminated").path("exitCode").asInt())
                .isEqualTo(1);
        assertThat(cs.path("restartCount").asInt()).isEqualTo(1);
        assertThat(condition(p, "Ready").path("status").asString()).isEqualTo("False");
    }

    @Test
    void aPodNoNodeFitsIsUnschedulableWithTheSchedulersReasonUntilANodeFits() {
        String ns = http.newNamespace("wl");
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        String label = "kubeloop-test-" + ns;
        create(pods, """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"picky"},
                 "spec":{"nodeSelector":{"%s":"yes"},"containers":[{"name":"c","image":"busybox"}]}}
                """.formatted(label));
        JsonNode p =
                awaitObject(pods + "/picky", o -> condition(o, "PodScheduled").has("reason"));
        JsonNode scheduled = condition(p, "PodScheduled");
        assertThat(scheduled.path("status").asString()).isEqualTo("False");
        assertThat(scheduled.path("reason").asString()).isEqualTo("Unschedulable");
        assertThat(scheduled.path("message").asString())
                .startsWith("0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.");
        assertThat(p.path("status").path("phase").asString()).isEqualTo("Pending");

        HttpResponse<String> labelled = http.patch(
                "/api/v1/nodes/kubeloop-node-1",
                "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"" + label + "\":\"yes\"}}}");
        assertThat(labelled.statusCode()).as(labelled.body()).isEqualTo(200);
        JsonNode running = awaitObject(
                pods + "/picky", o -> o.path("status").path("phase").asString().equals("Running"));
        assertThat(running.path("spec").path("nodeName").asString()).isEqualTo("kubeloop-node-1");
        http.patch(
                "/api/v1/nodes/kubeloop-node-1",
                "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"" + label + "\":null}}}");
    }

    private static String job(String name, String specExtra, String annotations) {
        return """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s"},
                 "spec":{%s"template":{"metadata":{"annotations":%s},
                  "spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}
                """.formatted(name, specExtra == null ? "" : specExtra + ",", annotations);
    }

    @Test
    void aJobRunsParallelPodsUntilItsCompletionsSucceed() {
        String ns = http.newNamespace("wl");
        String path = "/apis/batch/v1/namespaces/" + ns + "/jobs";
        JsonNode created = create(
                path, job("batch", "\"completions\":3,\"parallelism\":2", "{\"sim.kubeloop.io/run-time\":\"200ms\"}"));
        String uid = created.path("metadata").path("uid").asString();
        assertThat(created.path("spec")
                        .path("selector")
                        .path("matchLabels")
                        .path("batch.kubernetes.io/controller-uid")
                        .asString())
                .isEqualTo(uid);
        assertThat(created.path("spec")
                        .path("template")
                        .path("metadata")
                        .path("labels")
                        .path("job-name")
                        .asString())
                .isEqualTo("batch");

        AtomicInteger mostActive = new AtomicInteger();
        JsonNode done = awaitObject(path + "/batch", j -> {
            mostActive.accumulateAndGet(j.path("status").path("active").asInt(0), Math::max);
            return condition(j, "Complete").path("status").asString().equals("True");
        });
        assertThat(done.path("status").path("succeeded").asInt()).isEqualTo(3);
        assertThat(done.path("status").has("active")).isFalse();
        assertThat(done.path("status").has("completionTime")).isTrue();
        assertThat(condition(done, "SuccessCriteriaMet").path("reason").asString())
                .isEqualTo("CompletionsReached");
        assertThat(condition(done, "Complete").path("message").asString())
                .isEqualTo("Reached expected number of succeeded pods");
        assertThat(mostActive.get()).as("never more than parallelism").isLessThanOrEqualTo(2);
        List<JsonNode> pods = items("/api/v1/namespaces/" + ns + "/pods?labelSelector=job-name%3Dbatch");
        assertThat(pods)
                .hasSize(3)
                .allMatch(p -> p.path("status").path("phase").asString().equals("Succeeded"));
    }

    @Test
    void aJobWhosePodFailsPastItsBackoffLimitFails() {
        String ns = http.newNamespace("wl");
        String path = "/apis/batch/v1/namespaces/" + ns + "/jobs";
        create(
                path,
                job(
                        "doomed",
                        "\"backoffLimit\":0",
                        "{\"sim.kubeloop.io/run-time\":\"100ms\",\"sim.kubeloop.io/exit-code\":\"2\"}"));
        JsonNode failed = awaitObject(
                path + "/doomed",
                j -> condition(j, "Failed").path("status").asString().equals("True"));
        assertThat(condition(failed, "Failed").path("reason").asString()).isEqualTo("BackoffLimitExceeded");
        assertThat(condition(failed, "Failed").path("message").asString())
                .isEqualTo("Job has reached the specified backoff limit");
        assertThat(condition(failed, "FailureTarget").path("status").asString()).isEqualTo("True");
        assertThat(failed.path("status").path("failed").asInt()).isEqualTo(1);
    }

    @Test
    void anIndexedJobGivesEachPodItsCompletionIndex() {
        String ns = http.newNamespace("wl");
        String path = "/apis/batch/v1/namespaces/" + ns + "/jobs";
        create(
                path,
                job(
                        "indexed",
                        "\"completions\":3,\"parallelism\":3,\"completionMode\":\"Indexed\"",
                        "{\"sim.kubeloop.io/run-time\":\"100ms\"}"));
        JsonNode done = awaitObject(
                path + "/indexed",
                j -> condition(j, "Complete").path("status").asString().equals("True"));
        assertThat(done.path("status").path("completedIndexes").asString()).isEqualTo("0-2");
        assertThat(items("/api/v1/namespaces/" + ns + "/pods"))
                .extracting(p -> p.path("metadata")
                        .path("annotations")
                        .path("batch.kubernetes.io/job-completion-index")
                        .asString())
                .containsExactlyInAnyOrder("0", "1", "2");
    }

    @Test
    void aStatefulSetMakesOrdinalPodsWithTheirOwnBoundClaimsAndRollsAnUpdateDownTheOrdinals() {
        String ns = http.newNamespace("wl");
        String path = "/apis/apps/v1/namespaces/" + ns + "/statefulsets";
        create(path, """
                {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
                 "spec":{"replicas":3,"serviceName":"db","selector":{"matchLabels":{"app":"db"}},
                  "template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"c","image":"db:1"}]}},
                  "volumeClaimTemplates":[{"metadata":{"name":"data"},
                   "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}}}}]}}
                """);
        JsonNode sts = awaitObject(
                path + "/db", o -> o.path("status").path("readyReplicas").asInt(0) == 3);
        String revision = sts.path("status").path("updateRevision").asString();
        assertThat(sts.path("status").path("currentRevision").asString()).isEqualTo(revision);
        List<JsonNode> pods = items("/api/v1/namespaces/" + ns + "/pods");
        assertThat(pods)
                .extracting(p -> p.path("metadata").path("name").asString())
                .containsExactlyInAnyOrder("db-0", "db-1", "db-2");
        String previous = "";
        for (String name : List.of("db-0", "db-1", "db-2")) {
            JsonNode p = get("/api/v1/namespaces/" + ns + "/pods/" + name);
            assertThat(p.path("spec").path("hostname").asString()).isEqualTo(name);
            assertThat(p.path("spec").path("subdomain").asString()).isEqualTo("db");
            assertThat(p.path("metadata")
                            .path("labels")
                            .path("controller-revision-hash")
                            .asString())
                    .isEqualTo(revision);
            assertThat(p.path("spec")
                            .path("volumes")
                            .get(0)
                            .path("persistentVolumeClaim")
                            .path("claimName")
                            .asString())
                    .isEqualTo("data-" + name);
            String created = p.path("metadata").path("creationTimestamp").asString();
            assertThat(created).as("ordinals are created in order").isGreaterThanOrEqualTo(previous);
            previous = created;
        }
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(items("/api/v1/namespaces/" + ns + "/persistentvolumeclaims"))
                        .hasSize(3)
                        .allSatisfy(c -> {
                            assertThat(c.path("status").path("phase").asString())
                                    .isEqualTo("Bound");
                            assertThat(c.path("status")
                                            .path("capacity")
                                            .path("storage")
                                            .asString())
                                    .isEqualTo("2Gi");
                            assertThat(c.path("spec").path("storageClassName").asString())
                                    .isEqualTo("standard");
                            JsonNode pv = get("/api/v1/persistentvolumes/"
                                    + c.path("spec").path("volumeName").asString());
                            assertThat(pv.path("status").path("phase").asString())
                                    .isEqualTo("Bound");
                            assertThat(pv.path("spec")
                                            .path("claimRef")
                                            .path("uid")
                                            .asString())
                                    .isEqualTo(c.path("metadata").path("uid").asString());
                        }));

        http.patch(
                path + "/db",
                "application/strategic-merge-patch+json",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"db:2\"}]}}}}");
        JsonNode rolled = awaitObject(
                path + "/db",
                o -> o.path("status").path("updatedReplicas").asInt(0) == 3
                        && o.path("status").path("readyReplicas").asInt(0) == 3
                        && o.path("status")
                                .path("currentRevision")
                                .asString("")
                                .equals(o.path("status").path("updateRevision").asString("")));
        assertThat(rolled.path("status").path("updateRevision").asString()).isNotEqualTo(revision);
        assertThat(items("/api/v1/namespaces/" + ns + "/pods"))
                .allSatisfy(p -> assertThat(p.path("spec")
                                .path("containers")
                                .get(0)
                                .path("image")
                                .asString())
                        .isEqualTo("db:2"));
        assertThat(items("/apis/apps/v1/namespaces/" + ns + "/controllerrevisions"))
                .extracting(r -> r.path("revision").asInt())
                .containsExactlyInAnyOrder(1, 2);

        http.patch(path + "/db", "application/merge-patch+json", "{\"spec\":{\"replicas\":1}}");
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(items("/api/v1/namespaces/" + ns + "/pods"))
                        .extracting(p -> p.path("metadata").path("name").asString())
                        .containsExactly("db-0"));
        assertThat(items("/api/v1/namespaces/" + ns + "/persistentvolumeclaims"))
                .as("claims are kept")
                .hasSize(3);
    }

    @Test
    void aServicesEndpointsAndEndpointSliceFollowItsReadyPods() {
        String ns = http.newNamespace("wl");
        create("/apis/apps/v1/namespaces/" + ns + "/deployments", """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
                 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
                  "template":{"metadata":{"labels":{"app":"web"}},
                   "spec":{"containers":[{"name":"c","image":"nginx","ports":[{"name":"http","containerPort":8080}]}]}}}}
                """);
        create("/api/v1/namespaces/" + ns + "/services", """
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"web","labels":{"tier":"front"}},
                 "spec":{"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":"http"}]}}
                """);
        JsonNode ep = awaitObject(
                "/api/v1/namespaces/" + ns + "/endpoints/web",
                o -> o.path("subsets").path(0).path("addresses").size() == 2);
        JsonNode subset = ep.path("subsets").get(0);
        assertThat(subset.path("ports").get(0).path("port").asInt())
                .as("named targetPort resolved")
                .isEqualTo(8080);
        assertThat(subset.path("ports").get(0).path("name").asString()).isEqualTo("http");
        assertThat(subset.path("addresses").get(0).path("ip").asString()).startsWith("10.244.");
        assertThat(subset.path("addresses")
                        .get(0)
                        .path("targetRef")
                        .path("kind")
                        .asString())
                .isEqualTo("Pod");
        assertThat(ep.path("metadata").path("labels").path("tier").asString()).isEqualTo("front");

        List<JsonNode> slices = items("/apis/discovery.k8s.io/v1/namespaces/" + ns + "/endpointslices");
        assertThat(slices).hasSize(1);
        JsonNode slice = slices.getFirst();
        assertThat(slice.path("metadata").path("name").asString()).startsWith("web-");
        assertThat(slice.path("metadata")
                        .path("labels")
                        .path("kubernetes.io/service-name")
                        .asString())
                .isEqualTo("web");
        assertThat(slice.path("addressType").asString()).isEqualTo("IPv4");
        assertThat(slice.path("endpoints")).hasSize(2).allSatisfy(e -> {
            assertThat(e.path("conditions").path("ready").asBoolean()).isTrue();
            assertThat(e.path("nodeName").asString()).isEqualTo("kubeloop-node-1");
        });

        http.patch(
                "/apis/apps/v1/namespaces/" + ns + "/deployments/web",
                "application/merge-patch+json",
                "{\"spec\":{\"replicas\":1}}");
        awaitObject(
                "/api/v1/namespaces/" + ns + "/endpoints/web",
                o -> o.path("subsets").path(0).path("addresses").size() == 1);
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(items("/apis/discovery.k8s.io/v1/namespaces/" + ns + "/endpointslices")
                                .getFirst()
                                .path("endpoints"))
                        .hasSize(1));

        http.delete("/api/v1/namespaces/" + ns + "/services/web");
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(http.get("/api/v1/namespaces/" + ns + "/endpoints/web").statusCode())
                    .isEqualTo(404);
            assertThat(items("/apis/discovery.k8s.io/v1/namespaces/" + ns + "/endpointslices"))
                    .isEmpty();
        });
    }
}
