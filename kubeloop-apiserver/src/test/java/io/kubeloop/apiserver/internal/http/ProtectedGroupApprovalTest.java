package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerInternals;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.storage.Change;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The protection of the Kubernetes project's API groups (KEP-2337), over real HTTPS, as kube-apiserver
 * enforces it: a CRD whose group is {@code k8s.io}, {@code kubernetes.io} or a subdomain of either is
 * created only with the annotation {@code api-approved.kubernetes.io} holding a URL (approved) or a value
 * starting with {@code unapproved}; an update may not turn it missing or invalid, but a CRD stored without
 * it keeps being writable; the condition {@code KubernetesAPIApprovalPolicyConformant} reports the state.
 */
class ProtectedGroupApprovalTest {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final String CONDITION = "KubernetesAPIApprovalPolicyConformant";
    private static final String UNAPPROVED = "unapproved, experimental-only; please get an approval from Kubernetes"
            + " API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups";
    private static final String REQUIRED = "metadata.annotations[api-approved.kubernetes.io]: Required value:"
            + " protected groups must have approval annotation \"api-approved.kubernetes.io\","
            + " see https://github.com/kubernetes/enhancements/pull/1111";
    private static final AtomicInteger KINDS = new AtomicInteger();

    static EmbeddedApiServer server;
    static RawHttp http;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start(ServerOptions.defaults());
        http = new RawHttp(server);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A CRD {@code <plural>.<group>} with a fresh kind, annotated with {@code approval} unless null. */
    private static ObjectNode crd(String group, String approval) {
        int n = KINDS.incrementAndGet();
        ObjectNode crd = (ObjectNode) KubeJson.mapper().readTree(CrdFixtures.simple(group, "things" + n, "Thing" + n));
        if (approval != null) {
            ((ObjectNode) crd.path("metadata")).putObject("annotations").put("api-approved.kubernetes.io", approval);
        }
        return crd;
    }

    private static String name(JsonNode crd) {
        return crd.path("metadata").path("name").asString();
    }

    private static HttpResponse<String> create(JsonNode crd) {
        return http.post(CRDS, crd.toString());
    }

    @Test
    void aCrdInAProtectedGroupWithoutTheAnnotationIsRefusedWithKubeApiserversMessage() {
        for (String group : new String[] {"k8s.io", "tests.k8s.io", "kubernetes.io", "a.b.kubernetes.io"}) {
            JsonNode crd = crd(group, null);
            HttpResponse<String> r = create(crd);
            assertThat(r.statusCode()).as(group + ": " + r.body()).isEqualTo(422);
            JsonNode status = RawHttp.json(r);
            assertThat(status.path("message").asString())
                    .isEqualTo("CustomResourceDefinition.apiextensions.k8s.io \"" + name(crd) + "\" is invalid: "
                            + REQUIRED);
            JsonNode cause = status.path("details").path("causes").get(0);
            assertThat(cause.path("reason").asString()).isEqualTo("FieldValueRequired");
            assertThat(cause.path("field").asString()).isEqualTo("metadata.annotations[api-approved.kubernetes.io]");
        }
    }

    @Test
    void aGroupThatOnlyLooksLikeAProtectedOneNeedsNoAnnotation() {
        for (String group : new String[] {"k8s.io.example.com", "notk8s.io", "kubernetes.iox.com"}) {
            HttpResponse<String> r = create(crd(group, null));
            assertThat(r.statusCode()).as(group + ": " + r.body()).isEqualTo(201);
            JsonNode established = CrdFixtures.awaitCondition(http, name(RawHttp.json(r)), "Established", "True");
            assertThat(CrdFixtures.condition(established, CONDITION)).isEmpty();
        }
    }

    @Test
    void aValueThatIsNeitherAUrlNorUnapprovedIsInvalid() {
        for (String value : new String[] {"approved by me", "Unapproved", "github.com/kubernetes/pull/1", "https://"}) {
            JsonNode crd = crd("tests.k8s.io", value);
            HttpResponse<String> r = create(crd);
            assertThat(r.statusCode()).as(value + ": " + r.body()).isEqualTo(422);
            assertThat(RawHttp.json(r).path("message").asString())
                    .isEqualTo("CustomResourceDefinition.apiextensions.k8s.io \"" + name(crd)
                            + "\" is invalid: metadata.annotations[api-approved.kubernetes.io]: Invalid value: \""
                            + value + "\": protected groups must have approval annotation"
                            + " \"api-approved.kubernetes.io\" with either a URL or a reason starting with"
                            + " \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111");
        }
    }

    @Test
    void aUrlIsApprovedAndConformant() {
        String url = "https://github.com/kubernetes/kubernetes/pull/12345";
        HttpResponse<String> r = create(crd("tests.k8s.io", url));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode crd = CrdFixtures.awaitCondition(http, name(RawHttp.json(r)), CONDITION, "True");
        JsonNode condition = CrdFixtures.condition(crd, CONDITION).orElseThrow();
        assertThat(condition.path("reason").asString()).isEqualTo("ApprovedAnnotation");
        assertThat(condition.path("message").asString()).isEqualTo("approved in " + url);
        assertThat(CrdFixtures.condition(crd, "Established")
                        .orElseThrow()
                        .path("status")
                        .asString())
                .isEqualTo("True");
    }

    @Test
    void anUnapprovedValueIsAcceptedButNotConformant() {
        HttpResponse<String> r = create(crd("tests.kubernetes.io", UNAPPROVED));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        String name = name(RawHttp.json(r));
        CrdFixtures.awaitCondition(http, name, "Established", "True");
        JsonNode crd = CrdFixtures.awaitCondition(http, name, CONDITION, "False");
        JsonNode condition = CrdFixtures.condition(crd, CONDITION).orElseThrow();
        assertThat(condition.path("reason").asString()).isEqualTo("UnapprovedAnnotation");
        assertThat(condition.path("message").asString()).isEqualTo("not approved: \"" + UNAPPROVED + "\"");
    }

    @Test
    void anUpdateMayNotRemoveTheAnnotationButMayChangeItsValueAndTheConditionFollows() {
        HttpResponse<String> r = create(crd("tests.k8s.io", "https://github.com/kubernetes/enhancements/pull/1"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        String name = name(RawHttp.json(r));
        ObjectNode stored = (ObjectNode) CrdFixtures.awaitCondition(http, name, CONDITION, "True");

        ObjectNode removed = stored.deepCopy();
        ((ObjectNode) removed.path("metadata")).remove("annotations");
        HttpResponse<String> refused = http.put(CRDS + "/" + name, removed.toString());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(RawHttp.json(refused).path("message").asString())
                .isEqualTo("CustomResourceDefinition.apiextensions.k8s.io \"" + name + "\" is invalid: " + REQUIRED);

        ObjectNode unapproved = stored.deepCopy();
        ((ObjectNode) unapproved.path("metadata").path("annotations")).put("api-approved.kubernetes.io", "unapproved");
        HttpResponse<String> accepted = http.put(CRDS + "/" + name, unapproved.toString());
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        JsonNode crd = CrdFixtures.awaitCondition(http, name, CONDITION, "False");
        assertThat(CrdFixtures.condition(crd, CONDITION)
                        .orElseThrow()
                        .path("reason")
                        .asString())
                .isEqualTo("UnapprovedAnnotation");
    }

    /**
     * A CRD stored before the rule (here: put into storage directly, as a data directory of an older server
     * holds it) is served, carries {@code MissingAnnotation}, and takes updates that leave the annotation
     * missing; an update that sets an invalid value is still refused.
     */
    @Test
    void aCrdStoredWithoutTheAnnotationIsServedAndStaysWritableWhileItStaysMissing() {
        ObjectNode legacy = crd("legacy.k8s.io", null);
        String name = name(legacy);
        ObjectNode metadata = (ObjectNode) legacy.path("metadata");
        metadata.put("uid", UUID.randomUUID().toString());
        metadata.put("creationTimestamp", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
        ((ObjectNode) legacy.path("spec")).putObject("conversion").put("strategy", "None");
        ResourceDefinition crds = ServerInternals.registry(server)
                .resources()
                .find("apiextensions.k8s.io", "v1", "customresourcedefinitions")
                .orElseThrow();
        ServerInternals.store(server).write(crds.storageId(), name, current -> Change.put(legacy));

        JsonNode established = CrdFixtures.awaitCondition(http, name, "Established", "True");
        JsonNode crd = CrdFixtures.awaitCondition(http, name, CONDITION, "False");
        JsonNode condition = CrdFixtures.condition(crd, CONDITION).orElseThrow();
        assertThat(condition.path("reason").asString()).isEqualTo("MissingAnnotation");
        assertThat(condition.path("message").asString())
                .isEqualTo("protected groups must have approval annotation \"api-approved.kubernetes.io\","
                        + " see https://github.com/kubernetes/enhancements/pull/1111");

        ObjectNode labelled = (ObjectNode) established.deepCopy();
        ((ObjectNode) labelled.path("metadata")).putObject("labels").put("touched", "yes");
        HttpResponse<String> updated = http.put(CRDS + "/" + name, labelled.toString());
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);

        ObjectNode invalid = (ObjectNode) RawHttp.json(updated).deepCopy();
        ((ObjectNode) invalid.path("metadata")).putObject("annotations").put("api-approved.kubernetes.io", "yes");
        HttpResponse<String> refused = http.put(CRDS + "/" + name, invalid.toString());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(RawHttp.json(refused)
                        .path("details")
                        .path("causes")
                        .get(0)
                        .path("reason")
                        .asString())
                .isEqualTo("FieldValueInvalid");
    }
}
