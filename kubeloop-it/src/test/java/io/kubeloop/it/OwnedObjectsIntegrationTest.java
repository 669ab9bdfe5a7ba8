package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.ObjectMeta;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.PatchType;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.util.AlreadyOwnedException;
import io.kubeloop.controller.util.Applied;
import io.kubeloop.controller.util.OwnedObjects;
import io.kubeloop.controller.util.OwnerReferences;
import io.kubeloop.controller.webhook.TypedWebhooks;
import io.kubeloop.controller.webhook.WebhookServer;
import io.kubeloop.controller.webhook.WebhookServerOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code context.owned(owner).apply(desired)} against the embedded API server and its simulated
 * cluster: writes are counted on the manager's client (every request that is not a GET), so a
 * reconcile that finds the server at the desired state is seen to send nothing — whatever the
 * server defaulted, whatever the workload controllers wrote to the objects' status since.
 */
@Timeout(240)
class OwnedObjectsIntegrationTest extends EmbeddedServerTestBase {

    private static final String OWNER = "web";
    private static final Request OWNER_REQUEST = Request.of("default", OWNER);

    /** The manager's client: counts the requests that may change something. */
    private KubeClient counted;

    private final AtomicInteger writes = new AtomicInteger();
    private final List<String> writeLog = new CopyOnWriteArrayList<>();
    private final AtomicInteger reconciles = new AtomicInteger();
    private final Semaphore reconciled = new Semaphore(0);
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final List<Manager> managers = new ArrayList<>();

    @BeforeEach
    void countingClient() {
        counted = KubeClient.create(
                server.clientConfig(),
                ClientOptions.defaults().toBuilder()
                        .interceptors(List.of(chain -> {
                            ApiRequest r = chain.request();
                            if (!r.isSafe()) {
                                writes.incrementAndGet();
                                writeLog.add(r.method() + " " + r.uri().getPath());
                            }
                            return chain.proceed(r);
                        }))
                        .build());
    }

    @AfterEach
    void closeManagers() {
        managers.forEach(Manager::close);
        counted.close();
    }

    /** Applies the owner's children; nothing for ConfigMaps that are no owner of this test. */
    private interface Children {
        void apply(ConfigMap owner, OwnedObjects owned);
    }

    /** A manager whose controller reconciles owner ConfigMaps with {@code children}; started. */
    private Controller start(Children children) {
        Manager manager = Manager.create(counted);
        managers.add(manager);
        Controller controller = ControllerBuilder.forResource(ConfigMap.class)
                .named("app")
                .build(manager, (request, context) -> {
                    try {
                        reconcile(request, context, children);
                    } catch (RuntimeException e) {
                        failures.add(e);
                        throw e;
                    } finally {
                        reconciles.incrementAndGet();
                        reconciled.release();
                    }
                    return Result.done();
                });
        manager.start();
        return controller;
    }

    private static void reconcile(Request request, ReconcileContext context, Children children) {
        Optional<ConfigMap> owner = context.client().getOptional(ConfigMap.class, request.key());
        if (owner.isEmpty()
                || !"owner".equals(owner.get().getMetadata().getLabels().get("role"))) {
            return;
        }
        children.apply(owner.get(), context.owned(owner.get()));
    }

    /** Reconciles the owner {@code times} more times, each one after the last has ended. */
    private void reconcileOwner(Controller controller, int times) throws InterruptedException {
        int target = reconciles.get() + times;
        while (reconciles.get() < target) {
            reconciled.drainPermits();
            controller.queue().add(OWNER_REQUEST);
            assertThat(reconciled.tryAcquire(30, TimeUnit.SECONDS))
                    .as("a reconcile within 30 s")
                    .isTrue();
        }
    }

    private ConfigMap createOwner(Map<String, String> data) {
        return client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(OWNER)
                        .addToLabels("role", "owner")
                        .endMetadata()
                        .withData(data)
                        .build());
    }

    private static Deployment deployment(ConfigMap owner) {
        Map<String, String> data = owner.getData();
        DeploymentBuilder b = new DeploymentBuilder()
                .withNewMetadata()
                .withName(OWNER)
                .addToLabels("app", OWNER)
                .endMetadata();
        if (data.containsKey("tier")) {
            b.editMetadata().addToLabels("tier", data.get("tier")).endMetadata();
        }
        return b.withNewSpec()
                .withReplicas(Integer.parseInt(data.get("replicas")))
                .withNewSelector()
                .addToMatchLabels("app", OWNER)
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", OWNER)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("web")
                .withImage("nginx:1.27")
                .addNewPort()
                .withContainerPort(80)
                .endPort()
                .withNewResources()
                .addToLimits("cpu", new Quantity("1000m"))
                .addToRequests("memory", new Quantity("64Mi"))
                .endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static Service service() {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(OWNER)
                .endMetadata()
                .withNewSpec()
                .addToSelector("app", OWNER)
                .addNewPort()
                .withName("http")
                .withPort(80)
                .withTargetPort(new IntOrString(80))
                .endPort()
                .endSpec()
                .build();
    }

    private static StatefulSet statefulSet() {
        return new StatefulSetBuilder()
                .withNewMetadata()
                .withName(OWNER + "-db")
                .endMetadata()
                .withNewSpec()
                .withServiceName(OWNER)
                .withReplicas(1)
                .withNewSelector()
                .addToMatchLabels("app", OWNER + "-db")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", OWNER + "-db")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("db")
                .withImage("postgres:17")
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/postgresql/data")
                .endVolumeMount()
                .endContainer()
                .endSpec()
                .endTemplate()
                .addNewVolumeClaimTemplate()
                .withNewMetadata()
                .withName("data")
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .addToRequests("storage", new Quantity("1Gi"))
                .endResources()
                .endSpec()
                .endVolumeClaimTemplate()
                .endSpec()
                .build();
    }

    private final List<Applied.Outcome> outcomes = new CopyOnWriteArrayList<>();

    private final Children workload = (owner, owned) -> {
        outcomes.add(owned.apply(deployment(owner)).outcome());
        outcomes.add(owned.apply(service()).outcome());
        outcomes.add(owned.apply(statefulSet()).outcome());
    };

    private ResourceClient<Deployment> deployments() {
        return client.resource(Deployment.class).inNamespace("default");
    }

    private ResourceClient<Service> services() {
        return client.resource(Service.class).inNamespace("default");
    }

    private ResourceClient<StatefulSet> statefulSets() {
        return client.resource(StatefulSet.class).inNamespace("default");
    }

    /** Waits until the workload runs: every child exists and the simulated cluster has written their status. */
    private void awaitWorkloadRunning(int replicas) {
        await().atMost(Duration.ofSeconds(60))
                .ignoreException(NotFoundException.class)
                .untilAsserted(() -> {
                    assertThat(deployments().get(OWNER).getStatus().getAvailableReplicas())
                            .isEqualTo(replicas);
                    assertThat(statefulSets().get(OWNER + "-db").getStatus().getReadyReplicas())
                            .isEqualTo(1);
                    assertThat(services().get(OWNER).getSpec().getClusterIP()).isNotEmpty();
                });
    }

    /** Waits until the controller has reconciled after whatever happened so far, and no reconcile is left. */
    private void awaitQuiet(Controller controller) throws InterruptedException {
        reconcileOwner(controller, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> controller.queue().len() == 0);
        reconcileOwner(controller, 1);
    }

    @Test
    void aThousandReconcilesOfAnUnchangedOwnerSendNoWriteWithOrWithoutTheControllersMemory() throws Exception {
        Controller controller = start(workload);
        createOwner(Map.of("replicas", "2"));
        awaitWorkloadRunning(2);
        awaitQuiet(controller);
        assertThat(outcomes.subList(0, 3)).containsOnly(Applied.Outcome.CREATED);
        assertThat(writeLog)
                .as("the three creates, and an apply again at most where the cache had not caught up")
                .hasSizeBetween(3, 6)
                .allMatch(w -> w.startsWith("PATCH "));
        Deployment served = deployments().get(OWNER);
        assertThat(served.getSpec().getStrategy())
                .as("the server defaulted fields the desired state does not set")
                .isNotNull();
        assertThat(served.getMetadata().getAnnotations()).containsKey(OwnedObjects.DESIRED_HASH_ANNOTATION);

        writes.set(0);
        writeLog.clear();
        reconcileOwner(controller, 1000);
        assertThat(writeLog)
                .as("writes of 1,000 reconciles of an unchanged owner")
                .isEmpty();
        assertThat(outcomes.subList(outcomes.size() - 3000, outcomes.size())).containsOnly(Applied.Outcome.UNCHANGED);

        // a new process remembers nothing: the hash on the objects and the comparison decide alone
        managers.removeFirst().close();
        Controller restarted = start(workload);
        awaitQuiet(restarted);
        reconcileOwner(restarted, 100);
        assertThat(writeLog).as("writes after a restart").isEmpty();
        assertThat(failures).isEmpty();
    }

    @Test
    void aChangedOwnerUpdatesTheChildThatDiffersOnly() throws Exception {
        Controller controller = start(workload);
        createOwner(Map.of("replicas", "2"));
        awaitWorkloadRunning(2);
        awaitQuiet(controller);
        writeLog.clear();
        outcomes.clear();

        client.resource(ConfigMap.class)
                .inNamespace("default")
                .patch(OWNER, PatchType.MERGE, "{\"data\":{\"replicas\":\"3\"}}");
        awaitWorkloadRunning(3);
        awaitQuiet(controller);

        assertThat(writeLog)
                .singleElement()
                .asString()
                .startsWith("PATCH /apis/apps/v1/namespaces/default/deployments/");
        assertThat(outcomes.stream().filter(o -> o != Applied.Outcome.UNCHANGED))
                .containsExactly(Applied.Outcome.UPDATED);
    }

    @Test
    void aChangeBySomeoneElseToAnOwnedFieldIsUndoneAndOtherFieldsAreLeftAlone() throws Exception {
        Controller controller = start(workload);
        createOwner(Map.of("replicas", "2"));
        awaitWorkloadRunning(2);
        awaitQuiet(controller);
        writeLog.clear();

        deployments().patch(OWNER, PatchType.MERGE, "{\"spec\":{\"replicas\":5}}");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(deployments().get(OWNER).getSpec().getReplicas())
                                .as("the controller's replicas again")
                                .isEqualTo(2));
        assertThat(writeLog).isNotEmpty();

        awaitQuiet(controller);
        writeLog.clear();
        services().patch(OWNER, PatchType.MERGE, "{\"metadata\":{\"labels\":{\"team\":\"blue\"}}}");
        awaitQuiet(controller);
        reconcileOwner(controller, 10);
        assertThat(writeLog)
                .as("a field the desired state does not set is no difference")
                .isEmpty();
        assertThat(services().get(OWNER).getMetadata().getLabels()).containsEntry("team", "blue");
    }

    @Test
    void anOwnedKindIsWatchedFromItsFirstApplySoADeletedChildComesBack() {
        start(workload); // no owns(..) declared
        createOwner(Map.of("replicas", "1"));
        awaitWorkloadRunning(1);
        String firstUid = services().get(OWNER).getMetadata().getUid();

        services().delete(OWNER);

        await().atMost(Duration.ofSeconds(30))
                .ignoreException(NotFoundException.class)
                .untilAsserted(() ->
                        assertThat(services().get(OWNER).getMetadata().getUid()).isNotEqualTo(firstUid));
        assertThat(OwnerReferences.controllerOf(services().get(OWNER)))
                .map(r -> r.name())
                .hasValue(OWNER);
    }

    @Test
    void aDifferenceTheServerKeepsCostsOneApplyPerChangeBySomeoneElseNeverALoop(@TempDir Path certs) throws Exception {
        // a mutating webhook enforces its own value of a field the desired state sets: every read
        // shows the difference, no apply removes it, and only the controller's memory of its last
        // apply keeps it from applying again and again
        String caBundle = server.writeServingCertificate(certs);
        WebhookServer webhooks = WebhookServer.create(WebhookServerOptions.defaults()
                .withAddress(new InetSocketAddress("127.0.0.1", 0))
                .withCertDir(certs));
        TypedWebhooks<ConfigMap> enforcer = TypedWebhooks.forType(ConfigMap.class, Scheme.defaults())
                .withDefaulter(cm -> "enforced".equals(cm.getData().get("mode"))
                        ? cm
                        : new ConfigMapBuilder(cm).addToData("mode", "enforced").build());
        enforcer.registerWith(webhooks);
        webhooks.start();
        InetSocketAddress address = webhooks.address().orElseThrow();
        try {
            client.resource(
                            new GroupVersionResource(
                                    "admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations"),
                            ResourceScope.CLUSTER,
                            DynamicObject.class)
                    .create(DynamicObject.parse("""
                            {"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
                             "metadata":{"name":"enforcer"},
                             "webhooks":[{"name":"enforcer.example.com",
                               "clientConfig":{"url":"https://127.0.0.1:%d%s","caBundle":"%s"},
                               "rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],
                                         "resources":["configmaps"]}],
                               "objectSelector":{"matchLabels":{"policy":"enforce"}},
                               "sideEffects":"None","admissionReviewVersions":["v1"]}]}""".formatted(address.getPort(), enforcer.mutatePath(), caBundle)));
            Children enforced = (owner, owned) -> owned.apply(new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("settings")
                    .addToLabels("policy", "enforce")
                    .endMetadata()
                    .addToData("mode", "fast")
                    .build());
            Controller controller = start(enforced);
            createOwner(Map.of());
            await().atMost(Duration.ofSeconds(30))
                    .ignoreException(NotFoundException.class)
                    .untilAsserted(() -> {
                        assertThat(failures).isEmpty();
                        assertThat(client.resource(ConfigMap.class)
                                        .inNamespace("default")
                                        .get("settings")
                                        .getData())
                                .containsEntry("mode", "enforced");
                    });
            awaitQuiet(controller);
            int afterCreate = writeLog.size();
            assertThat(afterCreate).isBetween(1, 2);

            reconcileOwner(controller, 200);
            assertThat(writeLog).as("no write while nobody else changes it").hasSize(afterCreate);

            client.resource(ConfigMap.class)
                    .inNamespace("default")
                    .patch("settings", PatchType.MERGE, "{\"metadata\":{\"labels\":{\"seen\":\"yes\"}}}");
            awaitQuiet(controller);
            reconcileOwner(controller, 200);
            assertThat(writeLog)
                    .as("one apply after the change by someone else, then none")
                    .hasSize(afterCreate + 1);
            assertThat(failures).isEmpty();
        } finally {
            webhooks.close();
        }
    }

    /** A user's record for a built-in kind: what kubeloop's own models will be. */
    @Kind(group = "", version = "v1", kind = "ConfigMap", plural = "configmaps")
    record ConfigMapRecord(String apiVersion, String kind, ObjectMeta metadata, Map<String, String> data)
            implements KubernetesObject {}

    @Test
    void recordsAndDynamicObjectsAreAppliedWatchedAndComparedAsModelsAre() throws Exception {
        Children untyped = (owner, owned) -> {
            owned.apply(new ConfigMapRecord(null, null, ObjectMeta.of(null, "as-record"), Map.of("k", "v")));
            owned.apply(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                    + "\"metadata\":{\"name\":\"as-dynamic\"},\"data\":{\"k\":\"v\"}}"));
        };
        Controller controller = start(untyped);
        createOwner(Map.of());
        ResourceClient<ConfigMap> configMaps = client.resource(ConfigMap.class).inNamespace("default");
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(NotFoundException.class)
                .untilAsserted(() -> {
                    assertThat(failures).isEmpty();
                    assertThat(OwnerReferences.controllerOf(configMaps.get("as-record")))
                            .isPresent();
                    assertThat(OwnerReferences.controllerOf(configMaps.get("as-dynamic")))
                            .isPresent();
                });
        awaitQuiet(controller);
        writeLog.clear();
        reconcileOwner(controller, 100);
        assertThat(writeLog)
                .as("writes of unchanged records and dynamic objects")
                .isEmpty();

        String recordUid = configMaps.get("as-record").getMetadata().getUid();
        String dynamicUid = configMaps.get("as-dynamic").getMetadata().getUid();
        configMaps.delete("as-record");
        configMaps.delete("as-dynamic");
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(NotFoundException.class)
                .untilAsserted(() -> {
                    assertThat(configMaps.get("as-record").getMetadata().getUid())
                            .isNotEqualTo(recordUid);
                    assertThat(configMaps.get("as-dynamic").getMetadata().getUid())
                            .isNotEqualTo(dynamicUid);
                });
        assertThat(failures).isEmpty();
    }

    @Test
    void aFieldTheDesiredStateNoLongerSetsIsRemovedAfterARestart() throws Exception {
        start(workload);
        createOwner(Map.of("replicas", "1", "tier", "frontend"));
        awaitWorkloadRunning(1);
        assertThat(deployments().get(OWNER).getMetadata().getLabels()).containsEntry("tier", "frontend");
        managers.removeFirst().close();

        client.resource(ConfigMap.class)
                .inNamespace("default")
                .patch(OWNER, PatchType.JSON_PATCH, "[{\"op\":\"remove\",\"path\":\"/data/tier\"}]");
        start(workload); // a new process: nothing remembered

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(deployments().get(OWNER).getMetadata().getLabels())
                                .doesNotContainKey("tier"));
    }

    @Test
    void anObjectControlledByAnotherOwnerIsNotTakenOver() throws Exception {
        ConfigMap other = client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("other")
                        .endMetadata()
                        .build());
        Service theirs = service();
        theirs.getMetadata().setNamespace("default");
        services().create(OwnerReferences.setControllerReference(other, theirs, Scheme.defaults()));
        List<Throwable> refused = new CopyOnWriteArrayList<>();
        BiConsumer<ConfigMap, OwnedObjects> applyService = (owner, owned) -> {
            try {
                owned.apply(service());
            } catch (AlreadyOwnedException e) {
                refused.add(e);
            }
        };
        start(applyService::accept);
        createOwner(Map.of());

        await().atMost(Duration.ofSeconds(30)).until(() -> !refused.isEmpty());
        assertThat(refused.getFirst())
                .hasMessage("Object default/web is already owned by another ConfigMap controller other");
        assertThat(OwnerReferences.controllerOf(services().get(OWNER)))
                .map(r -> r.name())
                .hasValue("other");
        assertThat(writeLog).isEmpty();
    }

    @Test
    void aChildNoLongerWantedIsDeletedOnlyWhenOwned() throws Exception {
        AtomicInteger deleted = new AtomicInteger();
        Children serviceUntilDisabled = (owner, owned) -> {
            if (owner.getData() != null && "true".equals(owner.getData().get("expose"))) {
                owned.apply(service());
            } else if (owned.delete(Service.class, OWNER)) {
                deleted.incrementAndGet();
            }
        };
        Controller controller = start(serviceUntilDisabled);
        createOwner(Map.of("expose", "true"));
        await().atMost(Duration.ofSeconds(30))
                .ignoreException(NotFoundException.class)
                .until(() -> services().get(OWNER) != null);

        client.resource(ConfigMap.class)
                .inNamespace("default")
                .patch(OWNER, PatchType.MERGE, "{\"data\":{\"expose\":\"false\"}}");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try {
                services().get(OWNER);
                return false;
            } catch (NotFoundException gone) {
                return true;
            }
        });
        awaitQuiet(controller);
        reconcileOwner(controller, 5);
        assertThat(deleted.get()).as("one delete, then nothing to delete").isEqualTo(1);
    }
}
