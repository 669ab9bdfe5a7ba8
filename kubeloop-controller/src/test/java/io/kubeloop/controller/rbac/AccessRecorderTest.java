package io.kubeloop.controller.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.internal.RequestInfo.Unresolvable;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The recorder notes a request as it is sent. Here the server is absent (nothing listens on the port),
 * so every request fails: it is noted all the same. The sample-controller's integration test records a
 * whole run against a real server.
 */
class AccessRecorderTest {

    private final KubeClient client = KubeClient.create(
            new ClientConfig(
                    URI.create("https://127.0.0.1:9"),
                    SslContextBuilder.create().insecureSkipTlsVerify().build(),
                    null,
                    AuthProvider.none(),
                    "shop",
                    null,
                    "nowhere"),
            ClientOptions.builder()
                    .maxRetries(0)
                    .connectTimeout(Duration.ofSeconds(2))
                    .build());

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void everyRequestIsNotedOnceWithItsRbacAttributesWhateverTheAnswer() {
        AccessRecorder recorder = AccessRecorder.create();
        KubeClient recorded = client.withInterceptor(recorder.interceptor());
        var deployments = recorded.resource(
                new GroupVersionResource("apps", "v1", "deployments"), ResourceScope.NAMESPACED, DynamicObject.class);

        assertThatThrownBy(() -> deployments.get("web")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.get("web")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.delete("web")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.inAnyNamespace().list()).isInstanceOf(RuntimeException.class);

        assertThat(recorder.accesses())
                .containsExactly(
                        new ApiAccess.Resource("list", "apps", "deployments", "", "", ""),
                        new ApiAccess.Resource("delete", "apps", "deployments", "", "shop", "web"),
                        new ApiAccess.Resource("get", "apps", "deployments", "", "shop", "web"));
    }

    private static final String FOO_OWNER = "{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
            + "\"name\":\"web\",\"uid\":\"u1\",\"controller\":true,\"blockOwnerDeletion\":true}";

    private static DynamicObject object(String apiVersion, String kind, String name, String ownerReferences) {
        return DynamicObject.parse("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"metadata\":{"
                + "\"name\":\"" + name + "\",\"namespace\":\"shop\""
                + (ownerReferences == null ? "" : ",\"ownerReferences\":" + ownerReferences) + "}}");
    }

    private ResourceClient<DynamicObject> recorded(AccessRecorder recorder, String group, String resource) {
        return client.withInterceptor(recorder.interceptor())
                .resource(
                        new GroupVersionResource(group, "v1", resource), ResourceScope.NAMESPACED, DynamicObject.class);
    }

    @Test
    void anApplyIsNotedAsPatchAndCreateSinceItCreatesTheObjectWhenMissingButNotOnASubresource() {
        AccessRecorder recorder = AccessRecorder.create();
        var configMaps = recorded(recorder, "", "configmaps");
        String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\"}}";

        assertThatThrownBy(() -> configMaps.patch("web", PatchType.APPLY, cm, PatchOptions.apply("ctl")))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> configMaps.patchStatus("web", PatchType.APPLY, cm, PatchOptions.apply("ctl")))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> configMaps.patch("other", PatchType.MERGE, "{\"data\":{}}"))
                .isInstanceOf(RuntimeException.class);

        assertThat(recorder.accesses())
                .containsExactlyInAnyOrder(
                        new ApiAccess.Resource("patch", "", "configmaps", "", "shop", "web"),
                        new ApiAccess.Resource("create", "", "configmaps", "", "shop", "web"),
                        new ApiAccess.Resource("patch", "", "configmaps", "status", "shop", "web"),
                        new ApiAccess.Resource("patch", "", "configmaps", "", "shop", "other"));
    }

    @Test
    void aPutOfAKindThatCreatesOnUpdateIsNotedAsCreateToo() {
        AccessRecorder recorder = AccessRecorder.create();
        var leases = recorded(recorder, "coordination.k8s.io", "leases");
        var configMaps = recorded(recorder, "", "configmaps");

        assertThatThrownBy(() -> leases.update(object("coordination.k8s.io/v1", "Lease", "leader", null)))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> configMaps.update(object("v1", "ConfigMap", "web", null)))
                .isInstanceOf(RuntimeException.class);

        assertThat(recorder.accesses())
                .containsExactlyInAnyOrder(
                        new ApiAccess.Resource("update", "", "configmaps", "", "shop", "web"),
                        new ApiAccess.Resource("create", "coordination.k8s.io", "leases", "", "shop", "leader"),
                        new ApiAccess.Resource("update", "coordination.k8s.io", "leases", "", "shop", "leader"));
    }

    @Test
    void aBlockingOwnerReferenceIsNotedAsAnUpdateOfTheOwnersFinalizers() {
        AccessRecorder recorder = AccessRecorder.create();
        var deployments = recorded(recorder, "apps", "deployments");
        String namespaceOwner = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"name\":\"shop\",\"uid\":\"u2\","
                + "\"blockOwnerDeletion\":true}";
        String plainOwner = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"cfg\",\"uid\":\"u3\"}";

        assertThatThrownBy(() -> deployments.create(object(
                        "apps/v1",
                        "Deployment",
                        "web",
                        "[" + FOO_OWNER + "," + namespaceOwner + "," + plainOwner + "]")))
                .isInstanceOf(RuntimeException.class);

        assertThat(recorder.accesses())
                .containsExactlyInAnyOrder(
                        new ApiAccess.Resource("update", "", "namespaces", "finalizers", "", "shop"),
                        new ApiAccess.Resource("create", "apps", "deployments", "", "shop", ""),
                        new ApiAccess.Resource(
                                "update", "samplecontroller.k8s.io", "foos", "finalizers", "shop", "web"));
    }

    @Test
    void aPatchThatSetsOwnerReferencesIsNotedAsADeleteOfTheObjectAsAnAdoptionNeedsIt() {
        AccessRecorder recorder = AccessRecorder.create();
        var deployments = recorded(recorder, "apps", "deployments");

        assertThatThrownBy(() -> deployments.patch(
                        "merged", PatchType.MERGE, "{\"metadata\":{\"ownerReferences\":[" + FOO_OWNER + "]}}"))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> deployments.patch(
                        "json",
                        PatchType.JSON_PATCH,
                        "[{\"op\":\"add\",\"path\":\"/metadata/ownerReferences\",\"value\":[" + FOO_OWNER + "]}]"))
                .isInstanceOf(RuntimeException.class);

        assertThat(recorder.accesses())
                .containsExactlyInAnyOrder(
                        new ApiAccess.Resource("delete", "apps", "deployments", "", "shop", "json"),
                        new ApiAccess.Resource("patch", "apps", "deployments", "", "shop", "json"),
                        new ApiAccess.Resource("delete", "apps", "deployments", "", "shop", "merged"),
                        new ApiAccess.Resource("patch", "apps", "deployments", "", "shop", "merged"),
                        new ApiAccess.Resource(
                                "update", "samplecontroller.k8s.io", "foos", "finalizers", "shop", "web"));
    }

    @Test
    void aPathTheServerCannotResolveIsNotNotedAndStillSent() {
        AccessRecorder recorder = AccessRecorder.create();
        KubeClient recorded = client.withInterceptor(recorder.interceptor());
        assertThatThrownBy(() -> recorded.raw().get("/api/v1/watch"))
                .as("sent, and refused by the absent server")
                .isInstanceOf(RuntimeException.class)
                .isNotInstanceOf(Unresolvable.class);
        assertThat(recorder.accesses()).isEmpty();
    }

    @Test
    void clearForgetsWhatWasNoted() {
        AccessRecorder recorder = AccessRecorder.create();
        KubeClient recorded = client.withInterceptor(recorder.interceptor());
        assertThatThrownBy(() -> recorded.raw().get("/version")).isInstanceOf(RuntimeException.class);
        assertThat(recorder.accesses()).containsExactly(new ApiAccess.NonResource("get", "/version"));

        recorder.clear();

        assertThat(recorder.accesses()).isEmpty();
    }
}
