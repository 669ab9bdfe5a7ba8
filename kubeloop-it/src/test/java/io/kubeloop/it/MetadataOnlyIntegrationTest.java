package io.kubeloop.it;

import static io.kubeloop.controller.client.ListOption.inNamespace;
import static io.kubeloop.controller.client.ListOption.matchingLabels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ObjectKey;
import io.kubeloop.api.PartialObjectMetadata;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.cache.InformerFactory;
import io.kubeloop.cache.InformerOptions;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.SharedIndexInformer;
import io.kubeloop.client.ListOptions;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Watch;
import io.kubeloop.client.WatchEvent;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Metadata-only reads against the embedded API server: the client asks for
 * {@code meta.k8s.io/v1} PartialObjectMetadata and the server answers so, for gets, lists and
 * watches; informers, the manager's cache and controllers built on that.
 */
@Timeout(60)
class MetadataOnlyIntegrationTest extends EmbeddedServerTestBase {

    private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");

    private Secret secret(String name, Map<String, String> labels) {
        return client.resource(Secret.class)
                .inNamespace("default")
                .create(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(labels)
                        .endMetadata()
                        .withStringData(Map.of("password", "a large body the metadata leaves out"))
                        .build());
    }

    @Test
    void theMetadataClientGetsListsAndWatchesPartialObjectMetadata() throws Exception {
        Secret created = secret("s1", Map.of("app", "web"));
        ResourceClient<PartialObjectMetadata> metadata =
                client.metadataResource(SECRETS, ResourceScope.NAMESPACED).inNamespace("default");

        PartialObjectMetadata one = metadata.get("s1");
        assertThat(one.kind()).as("the server answered with metadata only").isEqualTo("PartialObjectMetadata");
        assertThat(one.apiVersion()).isEqualTo("meta.k8s.io/v1");
        assertThat(one.metadata().uid()).isEqualTo(created.getMetadata().getUid());
        assertThat(one.metadata().labels()).containsEntry("app", "web");

        var page = metadata.list(ListOptions.builder().labelSelector("app=web").build());
        assertThat(page.items()).extracting(m -> m.metadata().name()).containsExactly("s1");
        assertThat(page.items()).allSatisfy(m -> assertThat(m.kind()).isEqualTo("PartialObjectMetadata"));

        try (Watch<PartialObjectMetadata> watch = metadata.watch(
                ListOptions.builder().resourceVersion(page.resourceVersion()).build())) {
            secret("s2", Map.of());
            Iterator<WatchEvent<PartialObjectMetadata>> events = watch.iterator();
            WatchEvent<PartialObjectMetadata> added = events.next();
            assertThat(added).isInstanceOfSatisfying(WatchEvent.Added.class, a -> {
                PartialObjectMetadata m = (PartialObjectMetadata) a.object();
                assertThat(m.metadata().name()).isEqualTo("s2");
                assertThat(m.kind()).isEqualTo("PartialObjectMetadata");
            });
        }
    }

    @Test
    void aMetadataInformerHoldsTheObjectsMetadataUnderTheirOwnKind() {
        secret("s1", Map.of("app", "web"));
        try (InformerFactory informers = InformerFactory.create(client, InformerOptions.defaults())) {
            SharedIndexInformer<PartialObjectMetadata> informer =
                    informers.metadataInformerFor(Secret.class, InformerScope.namespace("default"));
            informers.start();
            assertThat(informer.waitForCacheSync(Duration.ofSeconds(20))).isTrue();

            secret("s2", Map.of());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> informer.indexer().list().size() == 2);
            assertThat(informer.indexer().list()).allSatisfy(m -> {
                assertThat(m.kind()).isEqualTo("Secret");
                assertThat(m.apiVersion()).isEqualTo("v1");
            });
        }
    }

    @Test
    void theManagersClientReadsMetadataFromAMetadataOnlyCache() {
        secret("s1", Map.of("app", "web"));
        secret("s2", Map.of("app", "db"));
        try (Manager manager = Manager.create(client)) {
            PartialObjectMetadata s1 = manager.client().getMetadata(Secret.class, ObjectKey.of("default", "s1"));
            List<PartialObjectMetadata> web = manager.client()
                    .listMetadata(Secret.class, inNamespace("default"), matchingLabels(Map.of("app", "web")));

            assertThat(s1.kind()).isEqualTo("Secret");
            assertThat(s1.metadata().labels()).containsEntry("app", "web");
            assertThat(web).extracting(m -> m.metadata().name()).containsExactly("s1");
            assertThat(manager.cache().metadataInformersFor(Secret.class))
                    .singleElement()
                    .satisfies(i -> assertThat(i.indexer().list()).hasSize(2));
            assertThat(manager.apiReader()
                            .getMetadata(Secret.class, ObjectKey.of("default", "s2"))
                            .kind())
                    .isEqualTo("Secret");
        }
    }

    @Test
    void aControllerOwningATypeByMetadataOnlyIsToldOfItsChanges() {
        ConfigMap owner = client.resource(ConfigMap.class)
                .inNamespace("default")
                .create(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("owner")
                        .endMetadata()
                        .build());
        List<Request> reconciled = new CopyOnWriteArrayList<>();
        try (Manager manager = Manager.create(client)) {
            ControllerBuilder.forResource(ConfigMap.class)
                    .ownsMetadataOnly(Secret.class)
                    .build(manager, (request, context) -> {
                        reconciled.add(request);
                        return Result.done();
                    });
            manager.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.contains(Request.of("default", "owner")));
            reconciled.clear();

            client.resource(Secret.class)
                    .inNamespace("default")
                    .create(new SecretBuilder()
                            .withNewMetadata()
                            .withName("owned")
                            .withOwnerReferences(new OwnerReferenceBuilder()
                                    .withApiVersion("v1")
                                    .withKind("ConfigMap")
                                    .withName("owner")
                                    .withUid(owner.getMetadata().getUid())
                                    .withController(true)
                                    .build())
                            .endMetadata()
                            .build());

            await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.contains(Request.of("default", "owner")));
        }
    }
}
