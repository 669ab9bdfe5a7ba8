package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.BuiltinControllerMode;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.time.Ticker;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * A write that changes nothing is no write, as kube-apiserver treats it: server-side applying the same
 * configuration again with the same field manager, updating an object with what it already is, and
 * patching it with no change answer the stored object with its {@code resourceVersion} unchanged, send no
 * watch event, and leave {@code managedFields} as they were — their {@code time} included, though the
 * server's clock has moved on (an apply that changes the object takes its time from that clock). Shown on kinds whose objects the server defaults (a Deployment's strategy and
 * revision history limit, a Service's cluster IP, IP families and port protocols, a StatefulSet's pod
 * management policy and update strategy), which the applied configuration does not mention.
 *
 * <p>The built-in controllers are off: nothing but these requests writes the objects.
 */
class UnchangedWriteTest {

    private static final String APPLY = "application/apply-patch+yaml";

    /** The wall clock: system time plus an offset the tests move forward. */
    private static final AtomicReference<Duration> AHEAD = new AtomicReference<>(Duration.ZERO);

    private static EmbeddedApiServer server;
    private static RawHttp http;

    @BeforeAll
    static void start() {
        Ticker system = Ticker.system();
        Ticker movable = new Ticker() {
            @Override
            public long nanoTime() {
                return system.nanoTime();
            }

            @Override
            public Instant instant() {
                return system.instant().plus(AHEAD.get());
            }

            @Override
            public void parkUntil(long deadlineNanos) {
                system.parkUntil(deadlineNanos);
            }
        };
        server = EmbeddedApiServer.start(
                ServerOptions.defaults().withTicker(movable).withBuiltinControllers(BuiltinControllerMode.OFF));
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "deployments | apps/v1 | {'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'NAME'},"
                        + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'NAME'}},'template':{'metadata':"
                        + "{'labels':{'app':'NAME'}},'spec':{'containers':[{'name':'web','image':'nginx:1.27',"
                        + "'ports':[{'containerPort':80}]}]}}}}",
                "services | v1 | {'apiVersion':'v1','kind':'Service','metadata':{'name':'NAME'},"
                        + "'spec':{'selector':{'app':'NAME'},'ports':[{'port':80,'targetPort':8080}]}}",
                "statefulsets | apps/v1 | {'apiVersion':'apps/v1','kind':'StatefulSet','metadata':{'name':'NAME'},"
                        + "'spec':{'serviceName':'NAME','replicas':1,'selector':{'matchLabels':{'app':'NAME'}},"
                        + "'template':{'metadata':{'labels':{'app':'NAME'}},'spec':{'containers':[{'name':'db',"
                        + "'image':'postgres:16'}]}},'volumeClaimTemplates':[{'metadata':{'name':'data'},'spec':"
                        + "{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'1Gi'}}}}]}}",
            })
    void anUnchangedApplyUpdateOrPatchIsNoWrite(String plural, String apiVersion, String template) {
        String ns = http.newNamespace("same");
        String collection =
                (apiVersion.equals("v1") ? "/api/v1" : "/apis/" + apiVersion) + "/namespaces/" + ns + "/" + plural;
        String config = template.replace("NAME", "web").replace('\'', '"');

        HttpResponse<String> created = apply(collection + "/web", config);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode first = RawHttp.json(created);
        String rv = first.path("metadata").path("resourceVersion").asString();

        AHEAD.updateAndGet(d -> d.plus(Duration.ofMinutes(5)));
        try (RawHttp.Lines watch = http.watch(collection + "?watch=1&resourceVersion=" + rv)) {
            HttpResponse<String> again = apply(collection + "/web", config);
            assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
            assertThat(RawHttp.json(again)).isEqualTo(first);

            HttpResponse<String> put = http.put(collection + "/web", first.toString());
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(RawHttp.json(put)).isEqualTo(first);

            HttpResponse<String> patched = http.patch(
                    collection + "/web",
                    "application/merge-patch+json",
                    "{\"metadata\":{\"labels\":null},\"spec\":" + first.path("spec") + "}");
            assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
            assertThat(RawHttp.json(patched)).isEqualTo(first);

            assertThat(RawHttp.json(http.get(collection + "/web"))).isEqualTo(first);

            // the next event the watch sees is that of another object: the writes above sent none
            HttpResponse<String> other = apply(
                    collection + "/other", template.replace("NAME", "other").replace('\'', '"'));
            assertThat(other.statusCode()).as(other.body()).isEqualTo(201);
            JsonNode next = watch.next();
            assertThat(next.path("type").asString()).isEqualTo("ADDED");
            assertThat(next.path("object").path("metadata").path("name").asString())
                    .isEqualTo("other");

            // an apply that changes something is a write, its time the server's clock
            HttpResponse<String> labelled = apply(
                    collection + "/web",
                    config.replace("{\"name\":\"web\"}", "{\"name\":\"web\",\"labels\":{\"tier\":\"a\"}}"));
            assertThat(labelled.statusCode()).as(labelled.body()).isEqualTo(200);
            JsonNode modified = watch.next();
            assertThat(modified.path("type").asString()).isEqualTo("MODIFIED");
            assertThat(modified.path("object").path("metadata").path("name").asString())
                    .isEqualTo("web");
            Instant applied = Instant.parse(RawHttp.json(labelled)
                    .path("metadata")
                    .path("managedFields")
                    .get(0)
                    .path("time")
                    .asString());
            assertThat(applied).isAfter(Instant.now().plus(AHEAD.get()).minus(Duration.ofMinutes(1)));
        }
    }

    private static HttpResponse<String> apply(String path, String config) {
        return http.patch(path + "?fieldManager=test", APPLY, config);
    }
}
