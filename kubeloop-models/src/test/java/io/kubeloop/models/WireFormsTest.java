package io.kubeloop.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.IntOrString;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.json.JsonBytesReader;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.coordination.v1.Lease;
import io.kubeloop.models.core.v1.Secret;
import io.kubeloop.models.core.v1.Service;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Kubernetes' own value types keep their wire form through a read and a write. */
class WireFormsTest {

    private static <T> T read(String json, Class<T> type) throws Exception {
        T viaJackson = KubeJson.mapper().readValue(json, type);
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        T viaBytes = new JsonBytesReader(KubeJson.mapper())
                .read(JsonBytesReader.modelOf(type).orElseThrow(), bytes, 0, bytes.length);
        assertThat(viaBytes).isEqualTo(viaJackson);
        assertThat(KubeJson.mapper().<JsonNode>valueToTree(viaJackson))
                .isEqualTo(KubeJson.mapper().readTree(json));
        return viaJackson;
    }

    @Test
    void microTimeKeepsItsSixFractionalDigitsAndTimeItsSeconds() throws Exception {
        Lease lease = read("""
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease",
                 "metadata":{"name":"l","namespace":"n","creationTimestamp":"2026-01-02T03:04:05Z"},
                 "spec":{"holderIdentity":"a","acquireTime":"2026-01-02T03:04:05.000000Z",
                         "renewTime":"2026-01-02T03:04:06.123456Z","leaseDurationSeconds":15}}
                """, Lease.class);
        assertThat(lease.spec().renewTime()).isEqualTo(Instant.parse("2026-01-02T03:04:06.123456Z"));
        assertThat(lease.metadata().creationTimestamp()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
    }

    @Test
    void intOrStringAndQuantitiesKeepTheirText() throws Exception {
        Service service = read("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},
                 "spec":{"ports":[{"port":80,"targetPort":8080},{"port":443,"targetPort":"https"}]}}
                """, Service.class);
        assertThat(service.spec().ports().get(0).targetPort()).isEqualTo(IntOrString.of(8080));
        assertThat(service.spec().ports().get(1).targetPort()).isEqualTo(IntOrString.of("https"));

        Deployment d = read("""
                {"spec":{"template":{"spec":{"containers":[{"name":"c",
                  "resources":{"requests":{"cpu":"0.5","memory":"128974848e0"},"limits":{"cpu":"1500m"}}}]}}}}
                """, Deployment.class);
        var resources = d.spec().template().spec().containers().getFirst().resources();
        assertThat(resources.requests().get("cpu")).isEqualTo(Quantity.parse("500m"));
        assertThat(resources.limits().get("cpu").milliValue()).isEqualTo(1500);
    }

    @Test
    void bytesStayBase64Text() throws Exception {
        Secret secret = read("""
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"password":"c2VjcmV0"},"type":"Opaque"}
                """, Secret.class);
        assertThat(secret.data()).containsEntry("password", "c2VjcmV0");
    }

    /** A newer server's fields, at the top and deep inside, are kept and written back where they were. */
    @Test
    void fieldsTheModelDoesNotKnowAreKeptAtEveryDepth() throws Exception {
        Deployment d = read("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"topLevelFuture":{"a":[1,{"b":null}]},
                 "spec":{"replicas":2,"specFuture":"x",
                  "template":{"spec":{"containers":[{"name":"c","containerFuture":{"on":true}}],"podFuture":[1,2]}}},
                 "status":{"statusFuture":1.5}}
                """, Deployment.class);
        assertThat(d.unknownFields()).containsOnlyKeys("topLevelFuture");
        assertThat(d.spec().unknownFields()).containsOnlyKeys("specFuture");
        assertThat(d.spec().template().spec().containers().getFirst().unknownFields())
                .containsOnlyKeys("containerFuture");
        assertThat(d.status().unknownFields()).containsEntry("statusFuture", 1.5);
        Deployment changed = d.toBuilder().spec(s -> s.replicas(3)).build();
        JsonNode written = KubeJson.mapper().valueToTree(changed);
        assertThat(written.path("spec").path("specFuture").asString()).isEqualTo("x");
        assertThat(written.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(written.path("topLevelFuture").path("a").get(1).has("b")).isTrue();
    }
}
