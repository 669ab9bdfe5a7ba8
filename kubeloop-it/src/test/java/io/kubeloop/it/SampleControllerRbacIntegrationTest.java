package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.PatchOptions;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.WriteOptions;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.rbac.AccessRecorder;
import io.kubeloop.controller.rbac.AccessReport;
import io.kubeloop.controller.rbac.ApiAccess;
import io.kubeloop.controller.rbac.ManagerPermissions;
import io.kubeloop.controller.rbac.PolicyRule;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sample-controller run against the embedded API server with its manager's requests recorded: every
 * request it made, and every authorization a cluster makes for them (the Foo's finalizers its Deployment's
 * controller reference blocks), is allowed by the RBAC it declares, and with one rule taken away the check
 * names the missing one.
 */
@Timeout(120)
class SampleControllerRbacIntegrationTest extends EmbeddedServerTestBase {

    private static final String NS = "rbac";

    @Test
    void everyRequestOfAWholeFooLifecycleIsAllowedByTheDeclaredRules() {
        client.resource(new GroupVersionResource("", "v1", "namespaces"), ResourceScope.CLUSTER, DynamicObject.class)
                .create(DynamicObject.of("v1", "Namespace", ObjectMeta.of(null, NS)), WriteOptions.none());
        FooCrd.install(client, Duration.ofSeconds(30));
        ResourceClient<Foo> foos = client.resource(Foo.class).inNamespace(NS);
        ResourceClient<Deployment> deployments =
                client.resource(Deployment.class).inNamespace(NS);
        AccessRecorder recorder = AccessRecorder.create();

        Manager manager = Manager.create(client, ManagerOptions.defaults().withAccessRecorder(recorder));
        try (manager) {
            SampleController.addTo(manager);
            manager.start();

            foos.create(Foo.of(NS, "web", "web-deploy", 1));
            await().atMost(Duration.ofSeconds(30))
                    .ignoreException(NotFoundException.class)
                    .until(() -> deployments.get("web-deploy").getSpec().getReplicas() == 1);
            foos.patch("web", PatchType.MERGE, "{\"spec\":{\"replicas\":2}}");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> deployments.get("web-deploy").getSpec().getReplicas() == 2);
            deployments.patchStatus(
                    "web-deploy", PatchType.MERGE, "{\"status\":{\"availableReplicas\":2}}", PatchOptions.none());
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Foo f = foos.get("web");
                return f.status() != null
                        && Integer.valueOf(2).equals(f.status().availableReplicas());
            });
            foos.delete("web");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> foos.list().items().isEmpty());
        }

        List<ApiAccess> used = recorder.accesses();
        assertThat(used)
                .as("what the run did")
                .contains(
                        new ApiAccess.Resource("watch", "samplecontroller.k8s.io", "foos", "", "", ""),
                        new ApiAccess.Resource("watch", "apps", "deployments", "", "", ""),
                        new ApiAccess.Resource("create", "apps", "deployments", "", NS, ""),
                        new ApiAccess.Resource("update", "apps", "deployments", "", NS, "web-deploy"),
                        new ApiAccess.Resource("update", "samplecontroller.k8s.io", "foos", "status", NS, "web"),
                        new ApiAccess.Resource("create", "", "events", "", NS, ""),
                        // the Deployment's controller reference blocks the Foo's deletion: where owner
                        // references are enforced (OpenShift) that is an update of the Foo's finalizers
                        new ApiAccess.Resource("update", "samplecontroller.k8s.io", "foos", "finalizers", NS, "web"));
        AccessReport report = AccessReport.of(manager.permissions(), used);
        assertThat(report.missing()).as(report.toString()).isEmpty();
        ApiAccess getFoo = new ApiAccess.Resource("get", "samplecontroller.k8s.io", "foos", "", NS, "web");
        assertThat(used).doesNotContain(getFoo);
        assertThat(report.unused())
                .as("reads come from the cache, so the get declared with the watch is reported unused")
                .anyMatch(rule -> rule.allows(getFoo));

        // one generated rule taken away: the check names what is missing for the same run
        ManagerPermissions.Builder less = ManagerPermissions.builder();
        for (PolicyRule rule : manager.permissions().clusterRules()) {
            less.clusterWide(
                    rule.resources().contains("deployments")
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
        AccessReport without = AccessReport.of(less.build(), used);
        ApiAccess createDeployment = new ApiAccess.Resource("create", "apps", "deployments", "", NS, "");
        assertThat(without.missing()).as(without.toString()).anyMatch(rule -> rule.allows(createDeployment));
        assertThat(without.nothingMissing()).isFalse();
        assertThat(without.toString()).contains("deployments").contains("create");
    }
}
