package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.AdmissionPlugin;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.rbac.AccessRecorder;
import io.kubeloop.controller.rbac.AccessReport;
import io.kubeloop.controller.rbac.ApiAccess;
import io.kubeloop.controller.rbac.ManagerPermissions;
import io.kubeloop.controller.rbac.Permission;
import io.kubeloop.controller.rbac.PolicyRule;
import io.kubeloop.controller.rbac.RbacManifests;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Controllers run with the RBAC generated for them, as their ServiceAccount, on an embedded server that
 * authorizes as the strictest clusters do: with {@code OwnerReferencesPermissionEnforcement} enabled (as on
 * OpenShift) the sample-controller's controller references need the {@code foos/finalizers} rule its RBAC now
 * has; and a controller that only applies needs {@code create}, which its recorded run shows and its access
 * report keeps, and without which its first apply is refused as kube-apiserver refuses it.
 */
@Timeout(180)
class RbacOnEnforcingServerIntegrationTest extends EmbeddedServerTestBase {

    private static final String SYSTEM = "controllers";

    @Override
    protected ServerOptions serverOptions() {
        return ServerOptions.defaults().withAdmissionPlugin(AdmissionPlugin.OWNER_REFERENCES_PERMISSION_ENFORCEMENT);
    }

    /**
     * Applies the settings of every Foo: a ConfigMap {@code NAME-settings} beside it, written only by
     * server-side apply.
     */
    @Permission(
            resources = "configmaps",
            verbs = {"create", "patch"})
    record SettingsReconciler() implements Reconciler {
        @Override
        public Result reconcile(Request request, ReconcileContext context) {
            Optional<Foo> foo = context.client().getOptional(Foo.class, request.key());
            if (foo.isPresent()) {
                context.client().apply(settings(request.namespace(), request.name()), "settings-controller");
            }
            return Result.done();
        }
    }

    static ConfigMap settings(String namespace, String foo) {
        ConfigMap cm = new ConfigMapBuilder()
                .withNewMetadata()
                .withName(foo + "-settings")
                .withNamespace(namespace)
                .endMetadata()
                .addToData("replicas", "1")
                .build();
        cm.setApiVersion("v1");
        cm.setKind("ConfigMap");
        return cm;
    }

    private void createNamespace(String name) {
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, name)), WriteOptions.none());
    }

    /** Creates {@code objects} as the administrator, each at its kind's resource. */
    private void install(List<DynamicObject> objects) {
        for (DynamicObject o : objects) {
            ResourceClient<DynamicObject> resource = client.resource(o.kind());
            String ns = o.metadata().namespace();
            (ns == null ? resource : resource.inNamespace(ns)).create(o, WriteOptions.none());
        }
    }

    /** A client authenticated as ServiceAccount {@code account} of {@link #SYSTEM}, with a token of the TokenRequest API. */
    private KubeClient asServiceAccount(String account) throws Exception {
        try (HttpClient http = HttpClient.newBuilder()
                .sslContext(server.clientConfig().sslContext())
                .build()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/" + SYSTEM
                                    + "/serviceaccounts/" + account + "/token"))
                            .header("Authorization", "Bearer " + server.token())
                            .header("Content-Type", "application/json")
                            .POST(
                                    HttpRequest.BodyPublishers.ofString(
                                            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            String token = KubeJson.mapper()
                    .readTree(r.body())
                    .path("status")
                    .path("token")
                    .asString();
            return KubeClient.create(
                    new ClientConfig(
                            server.url(),
                            server.clientConfig().sslContext(),
                            null,
                            AuthProvider.bearer(token),
                            "default",
                            null,
                            account),
                    ClientOptions.defaults());
        }
    }

    /** Takes {@code resource} out of every rule of ClusterRole {@code clusterRole} that names it among others. */
    private void revoke(String clusterRole, String resource) {
        ResourceClient<DynamicObject> roles = client.resource(
                new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles"),
                ResourceScope.CLUSTER,
                DynamicObject.class);
        roles.update(roles.get(clusterRole).edit(n -> {
            for (JsonNode rule : n.path("rules")) {
                ArrayNode kept = ((ObjectNode) rule).arrayNode();
                rule.path("resources").forEach(r -> {
                    if (!r.asString().equals(resource)) {
                        kept.add(r);
                    }
                });
                if (!kept.isEmpty()) {
                    ((ObjectNode) rule).set("resources", kept);
                }
            }
        }));
    }

    @Test
    void theSampleControllerRunsAsItsServiceAccountWithItsGeneratedRbacWhereOwnerReferencesAreEnforced()
            throws Exception {
        createNamespace(SYSTEM);
        FooCrd.install(client, Duration.ofSeconds(30));
        RbacManifests rbac = RbacManifests.forControllers(List.of(SampleController.class), "sample", SYSTEM, null);
        install(rbac.objects());
        ResourceClient<Deployment> deployments =
                client.resource(Deployment.class).inNamespace("default");

        try (KubeClient account = asServiceAccount("sample-controller-manager");
                Manager manager = Manager.create(account)) {
            SampleController.addTo(manager);
            manager.start();
            client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "web", "web-deploy", 1));

            await().atMost(Duration.ofSeconds(60))
                    .ignoreException(NotFoundException.class)
                    .until(() -> deployments.get("web-deploy") != null);
            assertThat(deployments.get("web-deploy").getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(ref -> assertThat(ref.getBlockOwnerDeletion()).isTrue());
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                Foo f = client.resource(Foo.class).inNamespace("default").get("web");
                return f.status() != null
                        && Integer.valueOf(1).equals(f.status().availableReplicas());
            });
        }

        // the rule is what lets it: without it the same controller reference is refused as OpenShift refuses it
        revoke("sample-manager-role", "foos/finalizers");
        String uid = client.resource(Foo.class)
                .inNamespace("default")
                .get("web")
                .metadata()
                .uid();
        DynamicObject other = DynamicObject.parse("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{"
                + "\"name\":\"other\",\"namespace\":\"default\",\"ownerReferences\":[{\"apiVersion\":\""
                + Foo.API_VERSION + "\",\"kind\":\"Foo\",\"name\":\"web\",\"uid\":\"" + uid + "\",\"controller\":true,"
                + "\"blockOwnerDeletion\":true}]},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"other\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"other\"}},\"spec\":{\"containers\":["
                + "{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}");
        try (KubeClient account = asServiceAccount("sample-controller-manager")) {
            assertThatThrownBy(() -> account.resource(
                                    new GroupVersionResource("apps", "v1", "deployments"),
                                    ResourceScope.NAMESPACED,
                                    DynamicObject.class)
                            .inNamespace("default")
                            .create(other, WriteOptions.none()))
                    .isInstanceOfSatisfying(
                            ForbiddenException.class,
                            e -> assertThat(e.status().message())
                                    .isEqualTo(
                                            "deployments.apps \"other\" is forbidden: cannot set blockOwnerDeletion if an "
                                                    + "ownerReference refers to a resource you can't set finalizers on: , <nil>"));
        }
    }

    @Test
    void aControllerThatOnlyAppliesKeepsCreateInItsReportAndWithoutCreateItsFirstApplyIsRefused() throws Exception {
        createNamespace(SYSTEM);
        FooCrd.install(client, Duration.ofSeconds(30));
        AccessRecorder recorder = AccessRecorder.create();
        Manager recorded = Manager.create(client, ManagerOptions.defaults().withAccessRecorder(recorder));
        try (recorded) {
            ControllerBuilder.forResource(Foo.class).build(recorded, new SettingsReconciler());
            recorded.start();
            client.resource(Foo.class).inNamespace("default").create(Foo.of("default", "web", "web-deploy", 1));
            await().atMost(Duration.ofSeconds(60))
                    .ignoreException(NotFoundException.class)
                    .until(() -> client.resource(ConfigMap.class)
                                    .inNamespace("default")
                                    .get("web-settings")
                            != null);
        }
        ApiAccess create = new ApiAccess.Resource("create", "", "configmaps", "", "default", "web-settings");
        assertThat(recorder.accesses())
                .as("the apply is noted as the patch it is and the create it was")
                .contains(new ApiAccess.Resource("patch", "", "configmaps", "", "default", "web-settings"), create);
        AccessReport report = AccessReport.of(recorded.permissions(), recorder.accesses());
        assertThat(report.missing()).as(report.toString()).isEmpty();
        assertThat(report.unused()).as(report.toString()).noneMatch(rule -> rule.allows(create));

        // the same controller's RBAC without create: its first apply of an object is refused
        ManagerPermissions.Builder withoutCreate = ManagerPermissions.builder();
        for (PolicyRule rule : recorded.permissions().clusterRules()) {
            withoutCreate.clusterWide(
                    rule.resources().contains("configmaps")
                            ? new PolicyRule(
                                    rule.apiGroups(),
                                    rule.resources(),
                                    rule.resourceNames(),
                                    rule.verbs().stream()
                                            .filter(v -> !v.equals("create"))
                                            .toList(),
                                    rule.nonResourceURLs())
                            : rule);
        }
        install(RbacManifests.of(withoutCreate.build(), "settings", SYSTEM).objects());
        try (KubeClient account = asServiceAccount("settings-controller-manager")) {
            assertThatThrownBy(() -> account.resource(ConfigMap.class)
                            .inNamespace("default")
                            .patch(
                                    "api-settings",
                                    PatchType.APPLY,
                                    settings("default", "api"),
                                    PatchOptions.apply("settings-controller")))
                    .isInstanceOfSatisfying(
                            ForbiddenException.class,
                            e -> assertThat(e.status().message())
                                    .isEqualTo("configmaps \"api-settings\" is forbidden: "));
            assertThat(account.resource(ConfigMap.class)
                            .inNamespace("default")
                            .patch(
                                    "web-settings",
                                    PatchType.APPLY,
                                    settings("default", "web"),
                                    PatchOptions.apply("settings-controller"))
                            .getData())
                    .as("an apply of an existing object needs only patch")
                    .containsEntry("replicas", "1");
        }
    }
}
