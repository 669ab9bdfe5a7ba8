package io.kubeloop.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.cache.testing.FakeListerWatcher;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The informer example (an index, a lister and a handler) runs against a scripted collection. */
class CacheExampleTest {

    private static DynamicObject pod(String ns, String name, String app, String node) {
        return DynamicObject.parse(
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"" + ns + "\",\"name\":\""
                        + name + "\",\"labels\":{\"app\":\"" + app
                        + "\"},\"managedFields\":[{\"manager\":\"x\"}]},\"spec\":{\"nodeName\":\""
                        + node + "\"}}");
    }

    @Test
    void theDocumentedExampleListsWebPodsPerNodeFromTheCache() {
        FakeListerWatcher<DynamicObject> fake = FakeListerWatcher.dynamic();
        fake.add(pod("shop", "web-0", "web", "n1"));
        fake.add(pod("shop", "db-0", "db", "n1"));
        fake.add(pod("shop", "web-1", "web", "n2"));
        fake.add(pod("blog", "web-0", "web", "n3"));
        Map<String, List<String>> perNode = CacheExample.run(fake, Duration.ofSeconds(10));
        assertThat(perNode)
                .containsExactly(Map.entry("n1", List.of("db-0", "web-0")), Map.entry("n2", List.of("web-1")));
    }
}
