package io.kubeloop.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.IntOrString;
import io.kubeloop.api.Kind;
import io.kubeloop.api.ManagedFieldsEntry;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.OwnerReference;
import io.kubeloop.api.Quantity;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.client.discovery.APIResource;
import io.kubeloop.client.discovery.APIResourceList;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.controller.client.Client;
import io.kubeloop.controller.events.EventType;
import io.kubeloop.controller.util.OwnerReferences;
import io.kubeloop.models.apps.v1.DaemonSet;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.apps.v1.StatefulSet;
import io.kubeloop.models.batch.v1.Job;
import io.kubeloop.models.core.v1.ConfigMap;
import io.kubeloop.models.core.v1.Event;
import io.kubeloop.models.core.v1.Pod;
import io.kubeloop.models.core.v1.Secret;
import io.kubeloop.models.core.v1.Service;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kubeloop's models of the built-in kinds against the embedded API server: the cache hands out the cached
 * instance itself, which no caller can change, and every object the server and its simulated cluster make
 * reads into the models and writes back as the server sent it but for explicit nulls — and as fabric8's and
 * kubernetes-client/java's models write it, once the nulls and empty collections those drop or add are left
 * aside. Numbers compare by value; kubernetes-client/java's output also differs by what that client does: it
 * writes every time with six fractional digits and quantities in canonical form (compared as instants and by
 * value), and its round trip loses {@code metadata.managedFields} (compared without them).
 */
@Timeout(180)
class BuiltinModelsIntegrationTest extends EmbeddedServerTestBase {

    private Manager manager;

    @AfterEach
    void closeManager() {
        if (manager != null) {
            manager.close();
        }
    }

    @Test
    void aCacheReadReturnsTheCachedInstanceWhichNoCallerCanChange() {
        client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(ConfigMap.builder()
                        .metadata(m -> m.name("settings").label("app", "web"))
                        .putData("mode", "fast")
                        .build());
        manager = Manager.create(client, ManagerOptions.defaults());
        Client c = manager.client();

        ConfigMap first = c.get(ConfigMap.class, ObjectKey.of("default", "settings"));
        ConfigMap second = c.get(ConfigMap.class, ObjectKey.of("default", "settings"));
        assertThat(second).isSameAs(first);
        assertThat(c.list(ConfigMap.class))
                .filteredOn(cm -> cm.metadata().name().equals("settings"))
                .singleElement()
                .isSameAs(first);
        assertThat(manager.cache().informersFor(ConfigMap.class))
                .singleElement()
                .satisfies(i -> assertThat(i.indexer().get(first)).containsSame(first));

        assertThatThrownBy(() -> first.data().put("mode", "slow")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> first.metadata().labels().clear()).isInstanceOf(UnsupportedOperationException.class);
        ConfigMap changed = first.toBuilder().putData("mode", "slow").build();
        assertThat(changed.data()).containsEntry("mode", "slow");
        assertThat(c.get(ConfigMap.class, ObjectKey.of("default", "settings")).data())
                .containsEntry("mode", "fast");
    }

    /**
     * The models with the rest of kubeloop: owner references set on an immutable record (a new record), a
     * typed create, server-side apply through the manager's client, an Event about a model and a lister.
     */
    @Test
    void modelsWorkWithOwnerReferencesApplyEventsAndListers() throws Exception {
        ConfigMap owner = client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(ConfigMap.builder().metadata(m -> m.name("owner")).build());
        Secret unowned = Secret.builder()
                .metadata(m -> m.name("child").namespace("default"))
                .putStringData("k", "v")
                .build();
        Secret owned = OwnerReferences.setControllerReference(owner, unowned, Scheme.defaults());
        assertThat(unowned.metadata().ownerReferences())
                .as("the record given is unchanged")
                .isNull();
        Secret created = client.resource(Secret.class).inNamespace("default").create(owned);
        assertThat(OwnerReferences.controllerOf(created).map(OwnerReference::uid))
                .contains(owner.metadata().uid());
        assertThat(created.data()).containsEntry("k", "dg=="); // the server moves stringData to base64 data

        manager = Manager.create(client, ManagerOptions.defaults());
        ConfigMap applied = manager.client()
                .apply(
                        ConfigMap.builder()
                                .metadata(m -> m.name("applied").namespace("default"))
                                .putData("a", "1")
                                .build(),
                        "models-test");
        assertThat(applied.data()).containsEntry("a", "1");
        assertThat(applied.metadata().managedFields())
                .extracting(ManagedFieldsEntry::manager)
                .contains("models-test");

        manager.eventRecorderFor("models-test").event(applied, EventType.NORMAL, "Checked", "a model");
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (client.resource(Event.class).inNamespace("default").list().items().stream()
                .noneMatch(e -> "Checked".equals(e.reason())
                        && "applied".equals(e.involvedObject().name())
                        && "ConfigMap".equals(e.involvedObject().kind()))) {
            assertThat(Instant.now()).as("the Event is written").isBefore(deadline);
            sleep();
        }

        try (InformerFactory informers = InformerFactory.create(client, InformerOptions.defaults())) {
            informers.informerFor(ConfigMap.class, InformerScope.namespace("default"));
            informers.start();
            assertThat(informers.waitForCacheSync(Duration.ofSeconds(30))).doesNotContainValue(false);
            assertThat(informers
                            .listerFor(ConfigMap.class, InformerScope.namespace("default"))
                            .list())
                    .extracting(cm -> cm.metadata().name())
                    .contains("owner", "applied");
        }
    }

    @Test
    void objectsOfTheSimulatedClusterRoundTripThroughTheModelsAndAgreeWithThePeers() throws Exception {
        startWorkloads();
        Map<String, Class<?>> kinds = modelKinds();
        Scheme fabric8 = Scheme.defaults();
        List<String> differences = new ArrayList<>();
        Set<String> read = new TreeSet<>();
        int objects = 0;
        for (APIResourceList list :
                client.discovery().serverGroupsAndResources().resourceLists()) {
            for (APIResource resource : list.topLevelResources()) {
                if (!resource.verbs().contains("list")) {
                    continue;
                }
                GroupVersionKind gvk = resource.responseKind();
                Class<?> model = kinds.get(gvk.apiVersion() + "/" + gvk.kind());
                assertThat(model).as("a model of %s", gvk).isNotNull();
                for (DynamicObject item : client.resource(
                                resource.groupVersion().withResource(resource.name()),
                                resource.scope(),
                                DynamicObject.class)
                        .inAnyNamespace()
                        .list()
                        .items()) {
                    ObjectNode sent = withKind(item.node(), gvk);
                    byte[] json = KubeJson.mapper().writeValueAsBytes(sent);
                    String where = gvk.kind() + " " + item.metadata().namespace() + "/"
                            + item.metadata().name();
                    JsonNode viaModel =
                            KubeJson.mapper().valueToTree(KubeJson.mapper().readValue(json, model));
                    diff(withoutNulls(sent), viaModel, where + " (kubeloop models)", differences);
                    JsonNode comparable = withoutEmpties(sent);
                    // kubernetes-client/java's round trip loses metadata.managedFields; compared without them
                    JsonNode comparableForJava = comparable.deepCopy();
                    ((ObjectNode) comparableForJava.path("metadata")).remove("managedFields");
                    Class<?> fabric8Type = fabric8.typeOf(gvk).orElse(null);
                    if (fabric8Type != null && fabric8Type.getName().startsWith("io.fabric8.")) {
                        JsonNode viaFabric8 =
                                KubeJson.mapper().valueToTree(KubeJson.mapper().readValue(json, fabric8Type));
                        diff(comparable, withoutEmpties(viaFabric8), where + " (fabric8)", differences);
                    }
                    Class<?> javaType = KubernetesJavaModels.classOf(gvk);
                    if (javaType != null) {
                        diff(
                                comparableForJava,
                                withoutEmpties(KubernetesJavaModels.roundTrip(json, javaType)),
                                where + " (k8s-java)",
                                differences);
                    }
                    read.add(gvk.kind());
                    objects++;
                }
            }
        }
        assertThat(differences).isEmpty();
        assertThat(read)
                .contains(
                        "Pod",
                        "ReplicaSet",
                        "Deployment",
                        "StatefulSet",
                        "DaemonSet",
                        "ControllerRevision",
                        "Job",
                        "Service",
                        "EndpointSlice",
                        "Endpoints",
                        "Node",
                        "Namespace",
                        "Event",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "StorageClass");
        assertThat(objects).isGreaterThan(40);
    }

    /** Workloads whose controllers make ReplicaSets, Pods, ControllerRevisions, endpoints and Events. */
    private void startWorkloads() {
        Map<String, String> labels = Map.of("app", "web");
        client.resource(Deployment.class)
                .inNamespace("default")
                .create(Deployment.builder()
                        .metadata(m -> m.name("web"))
                        .spec(s -> s.replicas(2)
                                .selector(l -> l.matchLabels(labels))
                                .template(t -> t.metadata(m -> m.labels(labels))
                                        .spec(p -> p.addContainer(c -> c.name("nginx")
                                                .image("nginx:1.27")
                                                .addPort(port ->
                                                        port.name("http").containerPort(80))
                                                .resources(r -> r.putRequest("cpu", Quantity.parse("100m")))))))
                        .build());
        client.resource(Service.class)
                .inNamespace("default")
                .create(Service.builder()
                        .metadata(m -> m.name("web"))
                        .spec(s -> s.selector(labels)
                                .addPort(p -> p.name("http").port(80).targetPort(IntOrString.of("http"))))
                        .build());
        Map<String, String> db = Map.of("app", "db");
        client.resource(StatefulSet.class)
                .inNamespace("default")
                .create(StatefulSet.builder()
                        .metadata(m -> m.name("db"))
                        .spec(s -> s.replicas(1)
                                .serviceName("db")
                                .selector(l -> l.matchLabels(db))
                                .template(t -> t.metadata(m -> m.labels(db))
                                        .spec(p ->
                                                p.addContainer(c -> c.name("db").image("postgres:17")))))
                        .build());
        Map<String, String> agent = Map.of("app", "agent");
        client.resource(DaemonSet.class)
                .inNamespace("default")
                .create(DaemonSet.builder()
                        .metadata(m -> m.name("agent"))
                        .spec(s -> s.selector(l -> l.matchLabels(agent))
                                .template(t -> t.metadata(m -> m.labels(agent))
                                        .spec(p -> p.addContainer(
                                                c -> c.name("agent").image("busybox")))))
                        .build());
        client.resource(Job.class)
                .inNamespace("default")
                .create(Job.builder()
                        .metadata(m -> m.name("once"))
                        .spec(s -> s.template(t -> t.spec(p -> p.restartPolicy("Never")
                                .addContainer(
                                        c -> c.name("once").image("busybox").addCommand("true")))))
                        .build());
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (running() < 4
                || client.resource("endpointslices")
                        .inNamespace("default")
                        .list()
                        .items()
                        .isEmpty()) {
            assertThat(Instant.now()).as("the workloads' Pods run").isBefore(deadline);
            sleep();
        }
    }

    private long running() {
        return client.resource(Pod.class).inNamespace("default").list().items().stream()
                .filter(p -> p.status() != null && "Running".equals(p.status().phase()))
                .count();
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Kinds' models by {@code apiVersion/kind}, read from each record's {@code @Kind}. */
    private static Map<String, Class<?>> modelKinds() {
        Map<String, Class<?>> kinds = new HashMap<>();
        for (Class<?> type : ModelClasses.all()) {
            Kind kind = type.getAnnotation(Kind.class);
            if (kind != null) {
                String apiVersion = kind.group().isEmpty() ? kind.version() : kind.group() + "/" + kind.version();
                kinds.put(apiVersion + "/" + (kind.kind().isEmpty() ? type.getSimpleName() : kind.kind()), type);
            }
        }
        return kinds;
    }

    /** A list item with the apiVersion and kind a list leaves out of its items set. */
    private static ObjectNode withKind(ObjectNode item, GroupVersionKind gvk) {
        ObjectNode out = item.deepCopy();
        out.put("apiVersion", gvk.apiVersion());
        out.put("kind", gvk.kind());
        return out;
    }

    /** The JSON without nulls, at any depth: what a record cannot keep, as Go's encoding drops most. */
    static JsonNode withoutNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = KubeJson.mapper().createObjectNode();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (!e.getValue().isNull()) {
                    out.set(e.getKey(), withoutNulls(e.getValue()));
                }
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = KubeJson.mapper().createArrayNode();
            node.forEach(item -> out.add(withoutNulls(item)));
            return out;
        }
        return node;
    }

    /** The JSON without nulls, empty objects and empty arrays, at any depth. */
    static JsonNode withoutEmpties(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = KubeJson.mapper().createObjectNode();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                JsonNode v = withoutEmpties(e.getValue());
                if (!v.isNull() && !(v.isContainer() && v.isEmpty())) {
                    out.set(e.getKey(), v);
                }
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = KubeJson.mapper().createArrayNode();
            node.forEach(item -> out.add(withoutEmpties(item)));
            return out;
        }
        return node;
    }

    private static boolean sameQuantity(JsonNode a, JsonNode b, String path) {
        if (!a.isString() || !b.isString() || !path.matches(".*\\.(capacity|allocatable|requests|limits)\\.[^.]+")) {
            return false;
        }
        return Quantity.parse(a.asString()).equals(Quantity.parse(b.asString()));
    }

    private static boolean sameInstant(JsonNode a, JsonNode b) {
        if (!a.isString() || !b.isString() || !a.asString().matches("\\d{4}-\\d\\d-\\d\\dT.*")) {
            return false;
        }
        try {
            return OffsetDateTime.parse(a.asString())
                    .toInstant()
                    .equals(OffsetDateTime.parse(b.asString()).toInstant());
        } catch (DateTimeException e) {
            return false;
        }
    }

    /** Adds where {@code actual} differs from {@code expected} (numbers compared by value) to {@code out}. */
    static void diff(JsonNode expected, JsonNode actual, String path, List<String> out) {
        if (expected.isObject() && actual.isObject()) {
            Set<String> names = new TreeSet<>(expected.propertyNames());
            names.addAll(actual.propertyNames());
            for (String name : names) {
                diff(expected.path(name), actual.path(name), path + "." + name, out);
            }
        } else if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
            for (int i = 0; i < expected.size(); i++) {
                diff(expected.get(i), actual.get(i), path + "[" + i + "]", out);
            }
        } else if (expected.isNumber() && actual.isNumber()) {
            if (expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
                out.add(path + ": " + expected + " -> " + actual);
            }
        } else if (sameInstant(expected, actual)) {
            return; // kubernetes-client/java writes every time with six fractional digits
        } else if (sameQuantity(expected, actual, path)) {
            return; // kubernetes-client/java writes quantities in their canonical form
        } else if (!expected.equals(actual)) {
            out.add(path + ": " + expected + " -> " + actual);
        }
    }
}
