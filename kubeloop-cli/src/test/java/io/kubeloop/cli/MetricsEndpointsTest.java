package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.leader.LeaderElectionOptions;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both metrics endpoints scraped after known traffic, their names and labels those operators alert on: a
 * Manager's {@code /metrics} (a ConfigMap controller with leader election) carries the REST client's
 * {@code rest_client_*}, the informers' {@code reflector_*} and {@code informer_*} and
 * {@code leader_election_master_status}; the embedded server's {@code /metrics} (durable, with
 * {@code --data-dir}) carries kube-apiserver's {@code apiserver_request_total},
 * {@code apiserver_request_duration_seconds}, {@code apiserver_storage_objects},
 * {@code apiserver_registered_watchers} and the write-ahead log's commit latency, and refuses the
 * anonymous user as kube-apiserver does. The manager's live view streams the same loops as JSON
 * snapshots ({@code /loops/events}).
 */
@Timeout(120)
class MetricsEndpointsTest {

    private static final String NS = "metrics";
    private static final int CREATED = 3;

    @TempDir
    Path dir;

    /** One sample of a scrape: a series' name, its labels and its value. */
    record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** Parses Prometheus text format: every sample line; comments skipped. */
    static List<Sample> parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            assertThat(m.matches()).as("a sample line: %s", line).isTrue();
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return out;
    }

    /** The samples named {@code name} whose labels include {@code labels}. */
    static List<Sample> find(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }

    /** The one sample named {@code name} with these labels (among others); fails if there is none or several. */
    static double value(List<Sample> samples, String name, Map<String, String> labels) {
        List<Sample> found = find(samples, name, labels);
        assertThat(found).as("%s%s", name, labels).hasSize(1);
        return found.getFirst().value();
    }

    private static List<Sample> scrape(KubeClient client) {
        return parse(new String(client.raw().get("/metrics"), StandardCharsets.UTF_8));
    }

    @Test
    void theManagersAndTheServersMetricsCountTheTrafficUnderKubernetesNames() throws Exception {
        try (EmbeddedApiServer server =
                EmbeddedApiServer.start(ServerOptions.defaults().withDataDir(dir.resolve("data")))) {
            KubeClient client = server.client();
            client.resource(Namespace.class)
                    .create(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(NS)
                            .endMetadata()
                            .build());
            Set<String> reconciled = ConcurrentHashMap.newKeySet();
            ManagerOptions options = ManagerOptions.defaults()
                    .withMetricsAddress(new InetSocketAddress("127.0.0.1", 0))
                    .withLeaderElection(LeaderElectionOptions.defaults(NS, "metrics-lock", "me"));
            try (KubeClient managers = KubeClient.create(
                            server.clientConfig(),
                            ClientOptions.builder().qps(100).burst(200).build()); // a rate limiter to measure
                    Manager manager = Manager.create(managers, options)) {
                ControllerBuilder.forResource(ConfigMap.class)
                        .named("configmaps")
                        .build(manager, (Request r, ReconcileContext context) -> {
                            reconciled.add(r.namespace() + "/" + r.name());
                            return Result.done();
                        });
                manager.start();
                await().atMost(Duration.ofSeconds(30)).until(manager::isLeader);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> manager.informers().waitForCacheSync(Duration.ZERO).values().stream()
                                .allMatch(Boolean::booleanValue));
                for (int i = 0; i < CREATED; i++) {
                    client.resource(ConfigMap.class)
                            .inNamespace(NS)
                            .create(new ConfigMapBuilder()
                                    .withNewMetadata()
                                    .withName("cm-" + i)
                                    .endMetadata()
                                    .build());
                }
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> reconciled.containsAll(List.of(NS + "/cm-0", NS + "/cm-1", NS + "/cm-2")));

                URI metrics = URI.create("http://127.0.0.1:"
                        + manager.endpoints().metricsAddress().orElseThrow().getPort() + "/metrics");
                HttpResponse<String> scraped = HttpClient.newHttpClient()
                        .send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(scraped.statusCode()).isEqualTo(200);
                List<Sample> m = parse(scraped.body());
                String host = "127.0.0.1:" + server.url().getPort();

                assertThat(value(m, "rest_client_requests_total", Map.of("code", "200", "method", "GET", "host", host)))
                        .as("lists of the informer and gets of the lease")
                        .isPositive();
                assertThat(value(
                                m, "rest_client_requests_total", Map.of("code", "201", "method", "POST", "host", host)))
                        .as("the lease created")
                        .isEqualTo(1);
                assertThat(value(
                                m,
                                "rest_client_request_duration_seconds_bucket",
                                Map.of("verb", "GET", "host", host, "le", "+Inf")))
                        .isPositive();
                assertThat(value(
                                m,
                                "rest_client_rate_limiter_duration_seconds_count",
                                Map.of("verb", "GET", "host", host)))
                        .isPositive();

                List<Sample> objects = find(m, "informer_objects", Map.of());
                assertThat(objects).as("the ConfigMap informer's cache").hasSize(1);
                String informer = objects.getFirst().labels().get("name");
                assertThat(informer).startsWith("configmaps[");
                Map<String, String> named = Map.of("name", informer);
                int stored = client.resource(ConfigMap.class)
                        .inAnyNamespace()
                        .list()
                        .items()
                        .size();
                assertThat(objects.getFirst().value()).isEqualTo(stored);
                assertThat(value(m, "reflector_lists_total", named)).isGreaterThanOrEqualTo(1);
                assertThat(value(m, "reflector_watches_total", named)).isGreaterThanOrEqualTo(1);
                assertThat(value(m, "informer_events_total", Map.of("name", informer, "type", "ADDED")))
                        .isGreaterThanOrEqualTo(CREATED);
                assertThat(value(m, "informer_sync_duration_seconds", named)).isFinite();
                assertThat(value(m, "reflector_last_resource_version", named)).isPositive();
                assertThat(value(m, "informer_handler_backlog", named)).isZero();
                assertThat(find(m, "informer_handler_delivery_duration_seconds_count", named).stream()
                                .mapToDouble(Sample::value)
                                .sum())
                        .isGreaterThanOrEqualTo(CREATED);
                assertThat(value(m, "leader_election_master_status", Map.of("name", "metrics-lock")))
                        .isEqualTo(1);
                assertThat(value(m, "leader_election_transitions_total", Map.of("name", "metrics-lock")))
                        .isEqualTo(1);

                // the live view's events: one JSON snapshot of the same loops per second
                URI events = metrics.resolve("/loops/events");
                HttpResponse<Stream<String>> stream = HttpClient.newHttpClient()
                        .send(HttpRequest.newBuilder(events).build(), HttpResponse.BodyHandlers.ofLines());
                assertThat(stream.headers().firstValue("Content-Type"))
                        .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
                String data;
                try (Stream<String> lines = stream.body()) {
                    data = lines.filter(l -> l.startsWith("data: "))
                            .findFirst()
                            .orElseThrow()
                            .substring("data: ".length());
                }
                var snapshot = KubeJson.mapper().readTree(data);
                assertThat(snapshot.path("leader").asBoolean()).isTrue();
                assertThat(snapshot.path("informers")
                                .path(informer)
                                .path("objects")
                                .asLong())
                        .isEqualTo(stored);
                assertThat(snapshot.path("informers")
                                .path(informer)
                                .path("synced")
                                .asBoolean())
                        .isTrue();
                assertThat(snapshot.path("controllers")
                                .path("configmaps")
                                .path("success")
                                .asLong())
                        .isGreaterThanOrEqualTo(CREATED);
                assertThat(snapshot.path("queues")
                                .path("configmaps")
                                .path("adds")
                                .asLong())
                        .isGreaterThanOrEqualTo(CREATED);

                Map<String, String> configMaps = Map.of(
                        "group",
                        "",
                        "version",
                        "v1",
                        "resource",
                        "configmaps",
                        "subresource",
                        "",
                        "component",
                        "apiserver");
                Map<String, String> created = new LinkedHashMap<>(configMaps);
                created.putAll(Map.of("verb", "POST", "scope", "namespace", "code", "201"));
                Map<String, String> listed = new LinkedHashMap<>(configMaps);
                listed.putAll(Map.of("verb", "LIST", "scope", "cluster", "code", "200"));
                // a request is counted once its answer is sent: wait for the test's own last LIST
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> find(scrape(client), "apiserver_request_total", listed)
                                        .size()
                                == 1);
                List<Sample> s = scrape(client);
                assertThat(value(s, "apiserver_request_total", created)).isEqualTo(CREATED);
                assertThat(value(s, "apiserver_request_total", listed)).isGreaterThanOrEqualTo(1);
                Map<String, String> timed = new LinkedHashMap<>(configMaps);
                timed.putAll(Map.of("verb", "POST", "scope", "namespace", "le", "+Inf"));
                assertThat(value(s, "apiserver_request_duration_seconds_bucket", timed))
                        .isEqualTo(CREATED);
                assertThat(value(s, "apiserver_storage_objects", Map.of("resource", "configmaps")))
                        .isEqualTo(stored);
                assertThat(value(s, "apiserver_storage_objects", Map.of("resource", "leases.coordination.k8s.io")))
                        .isGreaterThanOrEqualTo(1);
                assertThat(value(s, "apiserver_registered_watchers", Map.of("resource", "configmaps")))
                        .isGreaterThanOrEqualTo(1);
                assertThat(value(s, "kubeloop_wal_commit_duration_seconds_count", Map.of()))
                        .isGreaterThanOrEqualTo(CREATED);
            }
            // a watch is counted when it ends, as kube-apiserver counts it
            client.raw().get("/api/v1/namespaces/" + NS + "/configmaps?watch=1&timeoutSeconds=1");
            Map<String, String> watched =
                    Map.of("resource", "configmaps", "verb", "WATCH", "scope", "namespace", "code", "200");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> find(scrape(client), "apiserver_request_total", watched)
                                    .size()
                            == 1);

            HttpResponse<String> anonymous = HttpClient.newBuilder()
                    .sslContext(server.clientConfig().sslContext())
                    .build()
                    .send(
                            HttpRequest.newBuilder(server.url().resolve("/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode())
                    .as("anonymous, as kube-apiserver")
                    .isEqualTo(403);
            assertThat(anonymous.body()).contains("User \\\"system:anonymous\\\" cannot get path \\\"/metrics\\\"");
        }
    }
}
