package io.kubeloop.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Objects written by kubectl's generators come back with kube-apiserver's defaults, field by field: a
 * {@code kubectl create deployment} gets the Deployment's strategy, history limit and progress deadline and a
 * Pod template with the Pod spec's and containers' defaults; a Job and a CronJob get theirs. Skipped without
 * kubectl.
 */
class KubectlDefaultsTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static Kubectl kubectl;

    @BeforeAll
    static void start() {
        assumeTrue(Kubectl.onPath().isPresent(), "no kubectl on PATH: skipped");
        server = EmbeddedApiServer.start(ServerOptions.defaults().withBuiltinControllers(BuiltinControllerMode.OFF));
        kubectl = new Kubectl(
                Kubectl.onPath().orElseThrow(), "PATH", server.writeKubeconfig(dir.resolve("k")), dir.resolve("c"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static JsonNode get(String... args) {
        return KubeJson.mapper().readTree(kubectl.ok(args));
    }

    @Test
    void aCreatedDeploymentHasKubeApiserversDeploymentPodSpecAndContainerDefaults() {
        kubectl.ok("create", "deployment", "web", "--image=nginx:1.27", "--port=80");
        JsonNode d = get("get", "deployment", "web", "-o", "json");
        JsonNode spec = d.path("spec");
        assertThat(spec.path("replicas").asInt()).isEqualTo(1);
        assertThat(spec.path("revisionHistoryLimit").asInt()).isEqualTo(10);
        assertThat(spec.path("progressDeadlineSeconds").asInt()).isEqualTo(600);
        assertThat(spec.path("strategy"))
                .isEqualTo(KubeJson.mapper()
                        .readTree("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\","
                                + "\"maxSurge\":\"25%\"}}"));
        JsonNode pod = spec.path("template").path("spec");
        assertThat(pod.path("dnsPolicy").asString()).isEqualTo("ClusterFirst");
        assertThat(pod.path("restartPolicy").asString()).isEqualTo("Always");
        assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isEqualTo(30);
        assertThat(pod.path("schedulerName").asString()).isEqualTo("default-scheduler");
        assertThat(pod.path("securityContext").toString()).isEqualTo("{}");
        JsonNode c = pod.path("containers").get(0);
        assertThat(c.path("imagePullPolicy").asString()).isEqualTo("IfNotPresent");
        assertThat(c.path("terminationMessagePath").asString()).isEqualTo("/dev/termination-log");
        assertThat(c.path("terminationMessagePolicy").asString()).isEqualTo("File");
        assertThat(c.path("resources").toString()).isEqualTo("{}");
        assertThat(c.path("ports").get(0).path("protocol").asString()).isEqualTo("TCP");
        assertThat(d.path("status").toString()).isEqualTo("{}");
    }

    @Test
    void anUntaggedOrLatestImageIsAlwaysPulledAndFieldsTheObjectSetsAreKept() {
        kubectl.ok("create", "deployment", "latest", "--image=nginx", "--replicas=3");
        JsonNode d = get("get", "deployment", "latest", "-o", "json");
        assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(d.path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("imagePullPolicy")
                        .asString())
                .isEqualTo("Always");
    }

    @Test
    void aCreatedJobAndCronJobHaveTheirDefaults() {
        kubectl.ok("create", "job", "once", "--image=busybox:1.36", "--", "true");
        JsonNode job = get("get", "job", "once", "-o", "json").path("spec");
        assertThat(job.path("parallelism").asInt()).isEqualTo(1);
        assertThat(job.path("completions").asInt()).isEqualTo(1);
        assertThat(job.path("backoffLimit").asInt()).isEqualTo(6);
        assertThat(job.path("completionMode").asString()).isEqualTo("NonIndexed");
        assertThat(job.path("suspend").asBoolean(true)).isFalse();
        assertThat(job.path("template").path("spec").path("restartPolicy").asString())
                .isEqualTo("Never");
        kubectl.ok("create", "cronjob", "nightly", "--image=busybox:1.36", "--schedule=0 3 * * *", "--", "true");
        JsonNode cron = get("get", "cronjob", "nightly", "-o", "json").path("spec");
        assertThat(cron.path("concurrencyPolicy").asString()).isEqualTo("Allow");
        assertThat(cron.path("successfulJobsHistoryLimit").asInt()).isEqualTo(3);
        assertThat(cron.path("failedJobsHistoryLimit").asInt()).isEqualTo(1);
        assertThat(cron.path("jobTemplate").path("spec").path("backoffLimit").asInt())
                .isEqualTo(6);
    }

    /**
     * A Secret's {@code stringData} is merged into {@code data} as base64 (its value winning over the same key of
     * {@code data}) and never stored; a Secret without a type is {@code Opaque}, as kube-apiserver does.
     */
    @Test
    void aSecretsStringDataIsMergedIntoDataAndItsTypeDefaultsToOpaque() throws Exception {
        Path manifest = dir.resolve("secret.yaml");
        Files.writeString(manifest, """
                apiVersion: v1
                kind: Secret
                metadata:
                  name: creds
                data:
                  user: b2xk
                  host: ZGI=
                stringData:
                  user: admin
                  password: "s3cr\u00e9t"
                """);
        kubectl.ok("create", "-f", manifest.toString());
        JsonNode s = get("get", "secret", "creds", "-o", "json");
        assertThat(s.has("stringData")).isFalse();
        assertThat(s.path("type").asString()).isEqualTo("Opaque");
        assertThat(s.path("data").path("user").asString()).isEqualTo("YWRtaW4="); // admin
        assertThat(s.path("data").path("host").asString()).isEqualTo("ZGI="); // db
        assertThat(new String(
                        Base64.getDecoder()
                                .decode(s.path("data").path("password").asString()),
                        StandardCharsets.UTF_8))
                .isEqualTo("s3cr\u00e9t");
    }
}
