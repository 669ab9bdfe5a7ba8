package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Services get their addresses and defaults as on kube-apiserver: the {@code kubernetes} Service at
 * 10.96.0.1, a free cluster IP from 10.96.0.0/12 with its IP family fields, node ports from 30000–32767, a
 * requested address checked, addresses carried over on update and immutable.
 */
class ServiceAddressesTest {

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String service(String name, String specExtra) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{"
                + "\"selector\":{\"app\":\"" + name + "\"},\"ports\":[{\"port\":80}]" + specExtra + "}}";
    }

    private static JsonNode create(String ns, String body) {
        HttpResponse<String> r = http.post("/api/v1/namespaces/" + ns + "/services", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return RawHttp.json(r).path("spec");
    }

    @Test
    void everyClusterHasTheKubernetesServiceAtTheFirstAddress() {
        JsonNode spec = RawHttp.json(http.get("/api/v1/namespaces/default/services/kubernetes"))
                .path("spec");
        assertThat(spec.path("clusterIP").asString()).isEqualTo("10.96.0.1");
        assertThat(spec.path("ports").get(0).path("port").asInt()).isEqualTo(443);
    }

    @Test
    void aServiceGetsAFreeClusterIpAndKubeApiserversDefaults() {
        String ns = http.newNamespace("svc");
        JsonNode a = create(ns, service("a", ""));
        JsonNode b = create(ns, service("b", ""));
        assertThat(a.path("clusterIP").asString())
                .startsWith("10.")
                .isNotEqualTo(b.path("clusterIP").asString());
        int second = Integer.parseInt(a.path("clusterIP").asString().split("\\.")[1]);
        assertThat(second).isBetween(96, 111);
        assertThat(a.path("clusterIPs").toString())
                .isEqualTo("[\"" + a.path("clusterIP").asString() + "\"]");
        assertThat(a.path("ipFamilies").toString()).isEqualTo("[\"IPv4\"]");
        assertThat(a.path("ipFamilyPolicy").asString()).isEqualTo("SingleStack");
        assertThat(a.path("type").asString()).isEqualTo("ClusterIP");
        assertThat(a.path("sessionAffinity").asString()).isEqualTo("None");
        assertThat(a.path("internalTrafficPolicy").asString()).isEqualTo("Cluster");
        assertThat(a.path("ports").get(0).path("protocol").asString()).isEqualTo("TCP");
        assertThat(a.path("ports").get(0).path("targetPort").asInt()).isEqualTo(80);
    }

    @Test
    void aRequestedAddressMustBeFreeAndInTheServiceRange() {
        String ns = http.newNamespace("svc");
        JsonNode a = create(ns, service("a", ",\"clusterIP\":\"10.100.0.7\""));
        assertThat(a.path("clusterIP").asString()).isEqualTo("10.100.0.7");
        HttpResponse<String> taken =
                http.post("/api/v1/namespaces/" + ns + "/services", service("b", ",\"clusterIP\":\"10.100.0.7\""));
        assertThat(taken.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(taken).path("message").asString()).contains("provided IP is already allocated");
        HttpResponse<String> outside =
                http.post("/api/v1/namespaces/" + ns + "/services", service("c", ",\"clusterIP\":\"192.168.0.1\""));
        assertThat(outside.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(outside).path("message").asString()).contains("is not in the valid range");
        assertThat(create(ns, service("headless", ",\"clusterIP\":\"None\""))
                        .path("clusterIP")
                        .asString())
                .isEqualTo("None");
    }

    @Test
    void anUpdateKeepsTheAddressesItLeavesOutAndMayNotChangeThem() {
        String ns = http.newNamespace("svc");
        String path = "/api/v1/namespaces/" + ns + "/services/a";
        JsonNode created = create(ns, service("a", ",\"type\":\"NodePort\""));
        int nodePort = created.path("ports").get(0).path("nodePort").asInt();
        assertThat(nodePort).isBetween(30000, 32767);
        String rv = RawHttp.json(http.get(path))
                .path("metadata")
                .path("resourceVersion")
                .asString();
        String update = service("a", ",\"type\":\"NodePort\"")
                .replace("\"name\":\"a\"", "\"name\":\"a\",\"resourceVersion\":\"" + rv + "\"");
        HttpResponse<String> kept = http.put(path, update);
        assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
        JsonNode spec = RawHttp.json(kept).path("spec");
        assertThat(spec.path("clusterIP").asString())
                .isEqualTo(created.path("clusterIP").asString());
        assertThat(spec.path("ports").get(0).path("nodePort").asInt()).isEqualTo(nodePort);
        String rv2 = RawHttp.json(kept).path("metadata").path("resourceVersion").asString();
        HttpResponse<String> changed = http.put(
                path,
                service("a", ",\"type\":\"NodePort\",\"clusterIP\":\"10.100.9.9\"")
                        .replace("\"name\":\"a\"", "\"name\":\"a\",\"resourceVersion\":\"" + rv2 + "\""));
        assertThat(changed.statusCode()).isEqualTo(422);
        assertThat(RawHttp.json(changed).path("message").asString()).contains("may not change once set");
    }
}
