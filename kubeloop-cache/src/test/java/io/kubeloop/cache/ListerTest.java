package io.kubeloop.cache;

import static io.kubeloop.cache.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.selector.LabelSelector;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Matrix line 37 and the lister's selector rules. */
class ListerTest {

    private final Indexer<DynamicObject> indexer = Indexer.withNamespaceIndex();

    ListerTest() {
        indexer.add(pod("shop", "web-0", "1", Map.of("app", "web")));
        indexer.add(pod("shop", "db-0", "1", Map.of("app", "db")));
        indexer.add(pod("blog", "web-0", "1", Map.of("app", "web")));
        indexer.add(TestObjects.node("node-1"));
    }

    @Test
    void getOfAMissingObjectIsNotFoundAndNamespacedListsUseTheNamespaceIndex() {
        AtomicInteger byIndex = new AtomicInteger();
        AtomicInteger fullLists = new AtomicInteger();
        @SuppressWarnings("unchecked")
        Indexer<DynamicObject> counting = (Indexer<DynamicObject>) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Indexer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("byIndex")) {
                        byIndex.incrementAndGet();
                    } else if (method.getName().equals("list")) {
                        fullLists.incrementAndGet();
                    }
                    try {
                        return method.invoke(indexer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Lister<DynamicObject> pods = Lister.create(counting, new GroupResource("", "pods"));
        assertThatThrownBy(() -> pods.namespace("ns").get("x"))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("pods \"x\" not found");
        assertThat(pods.namespace("shop").list())
                .extracting(TestObjects::name)
                .containsExactlyInAnyOrder("web-0", "db-0");
        assertThat(byIndex.get()).isEqualTo(1);
        assertThat(fullLists.get()).isZero();
        assertThat(pods.namespace("shop").get("db-0")).isNotNull();
    }

    @Test
    void listFiltersByLabelsAcrossNamespacesAndANothingSelectorMatchesNothing() {
        Lister<DynamicObject> pods = Lister.create(indexer, new GroupResource("", "pods"));
        assertThat(pods.list(LabelSelector.parse("app=web"))).hasSize(2);
        assertThat(pods.list()).hasSize(4);
        assertThat(pods.list(LabelSelector.nothing())).isEmpty();
        assertThat(pods.namespace("shop").list(LabelSelector.parse("app in (db)")))
                .extracting(TestObjects::name)
                .containsExactly("db-0");
    }

    @Test
    void clusterScopedGetAndAListerWithoutNamespaceIndexStillFilters() {
        Indexer<DynamicObject> plain = Indexer.create(KeyFunction.metaNamespace(), Map.of());
        plain.add(pod("shop", "a"));
        plain.add(pod("blog", "b"));
        plain.add(TestObjects.node("n"));
        Lister<DynamicObject> l = Lister.create(plain, new GroupResource("", "nodes"));
        assertThat(l.get("n")).isNotNull();
        assertThat(l.namespace("blog").list()).extracting(TestObjects::name).containsExactly("b");
        assertThatThrownBy(() -> Lister.create(plain, new GroupResource("apps", "deployments"))
                        .get("zz"))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("deployments.apps \"zz\" not found");
    }
}
