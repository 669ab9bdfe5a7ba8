package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Events as a Table: kube-apiserver's columns, the name last and hidden (what {@code kubectl get events} prints). */
class EventTableTest {

    /** The server these tests share: started before the first, closed after the last. */
    @AutoClose
    private static EmbeddedApiServer shared;

    static RawHttp http;

    @BeforeAll
    static void connect() {
        EmbeddedApiServer embedded = shared = EmbeddedApiServer.start(ServerOptions.defaults());
        http = new RawHttp(embedded);
    }

    @Test
    void eventsHaveKubeApiserversColumnsWithTheNameLastAndHidden() {
        HttpResponse<String> created = http.post("/api/v1/namespaces/default/events", """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"foo.1"},
                 "involvedObject":{"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","name":"foo"},
                 "reason":"Synced","message":"Foo synced successfully","type":"Normal","count":4,
                 "source":{"component":"foo-controller"},
                 "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:00Z"}""");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        JsonNode table = RawHttp.json(
                http.get("/api/v1/namespaces/default/events", "application/json;as=Table;v=v1;g=meta.k8s.io"));

        List<String> columns = new ArrayList<>();
        table.path("columnDefinitions")
                .forEach(c -> columns.add(
                        c.path("name").asString() + ":" + c.path("priority").asInt()));
        assertThat(columns)
                .containsExactly(
                        "Last Seen:0",
                        "Type:0",
                        "Reason:0",
                        "Object:0",
                        "Subobject:1",
                        "Source:1",
                        "Message:0",
                        "First Seen:1",
                        "Count:1",
                        "Name:1");
        List<String> cells = new ArrayList<>();
        table.path("rows").get(0).path("cells").forEach(c -> cells.add(c.asString()));
        assertThat(cells.subList(1, 10))
                .containsExactly(
                        "Normal",
                        "Synced",
                        "foo/foo",
                        "",
                        "foo-controller",
                        "Foo synced successfully",
                        cells.get(7),
                        "4",
                        "foo.1");
    }
}
