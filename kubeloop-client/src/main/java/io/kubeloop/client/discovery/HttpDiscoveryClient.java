package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupVersion;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/**
 * Discovery over HTTP, as client-go's {@code DiscoveryClient}: asks {@code /api} and {@code /apis}
 * for aggregated discovery ({@code apidiscovery.k8s.io/v2}, then {@code v2beta1}) and falls back to
 * legacy discovery when the server answers a plain {@code APIVersions}/{@code APIGroupList}; the
 * Content-Type of each reply decides how it is read. With legacy replies, {@code /api/v1} and every
 * {@code /apis/<group>/<version>} are fetched in parallel on virtual threads.
 *
 * <p>Failure rules: {@code /api} answering 404 means "no core group"; {@code /apis} failing is
 * fatal; a failing group version, a stale one, or a malformed per-version document is recorded in
 * {@link ServerResources#failures()}; resources without a response kind are dropped.
 *
 * <p>Nothing is cached: every call goes to the server, so {@link #fresh()} is always true and
 * {@link #invalidate()} does nothing. Thread-safe; the transport is shared, not owned (closing it is
 * the caller's business).
 *
 * @see <a href="https://pkg.go.dev/k8s.io/client-go/discovery#DiscoveryClient">discovery.DiscoveryClient</a>
 */
public final class HttpDiscoveryClient implements DiscoveryClient {

    private final ApiTransport transport;
    private final ThreadFactory threads;

    /** A client fetching group versions in parallel on virtual threads named {@code kubeloop-discovery-N}. */
    public HttpDiscoveryClient(ApiTransport transport) {
        this(transport, Thread.ofVirtual().name("kubeloop-discovery-", 0).factory());
    }

    /**
     * A client fetching group versions in parallel on threads from {@code threads}.
     *
     * @param transport the server connection
     * @param threads makes one short-lived thread per group version fetched
     */
    public HttpDiscoveryClient(ApiTransport transport, ThreadFactory threads) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.threads = Objects.requireNonNull(threads, "threads");
    }

    @Override
    public List<APIGroup> serverGroups() {
        return groupsAndMaybeResources().groups();
    }

    @Override
    public APIResourceList serverResourcesForGroupVersion(GroupVersion groupVersion) {
        Objects.requireNonNull(groupVersion, "groupVersion");
        String path = groupVersion.isCore() ? "/api/" + groupVersion.version() : "/apis/" + groupVersion.apiVersion();
        ApiResponse response = get(path, "application/json");
        if (groupVersion.equals(GroupVersion.CORE_V1) && response.status() == 404) {
            response.close();
            return new APIResourceList(groupVersion, List.of());
        }
        byte[] body = response.requireSuccess().bytes();
        return DiscoveryJson.parseResourceList(body, groupVersion, "GET " + path);
    }

    @Override
    public ServerResources serverGroupsAndResources() {
        Download d = groupsAndMaybeResources();
        if (d.resources() != null) {
            return new ServerResources(d.groups(), d.resources(), d.failures());
        }
        Map<GroupVersion, APIResourceList> resources = new LinkedHashMap<>();
        Map<GroupVersion, RuntimeException> failures = new LinkedHashMap<>(d.failures());
        List<GroupVersion> gvs =
                d.groups().stream().flatMap(g -> g.groupVersions().stream()).toList();
        Map<GroupVersion, Future<APIResourceList>> pending = new LinkedHashMap<>();
        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(threads)) {
            for (GroupVersion gv : gvs) {
                pending.put(gv, executor.submit(() -> serverResourcesForGroupVersion(gv)));
            }
            for (Map.Entry<GroupVersion, Future<APIResourceList>> e : pending.entrySet()) {
                try {
                    resources.put(e.getKey(), e.getValue().get());
                } catch (ExecutionException ex) {
                    failures.put(
                            e.getKey(),
                            ex.getCause() instanceof RuntimeException re
                                    ? re
                                    : new DiscoveryException(ex.getCause().toString(), ex.getCause()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiscoveryException("interrupted while discovering the resources of " + transport.server(), e);
        }
        return new ServerResources(d.groups(), resources, failures);
    }

    @Override
    public ServerVersion serverVersion() {
        byte[] body = get("/version", "application/json").requireSuccess().bytes();
        return DiscoveryJson.parseVersion(body, "GET /version");
    }

    @Override
    public void invalidate() {
        // nothing cached
    }

    /**
     * Groups, and the resources when both {@code /api} and {@code /apis} answered aggregated
     * discovery (else {@code resources} is null and every group version must be fetched).
     */
    record Download(
            List<APIGroup> groups,
            Map<GroupVersion, APIResourceList> resources,
            Map<GroupVersion, RuntimeException> failures) {}

    Download groupsAndMaybeResources() {
        List<APIGroup> groups = new ArrayList<>();
        Map<GroupVersion, APIResourceList> resources = new LinkedHashMap<>();
        Map<GroupVersion, RuntimeException> failures = new LinkedHashMap<>();
        boolean allAggregated = true;

        ApiResponse api = get("/api", DiscoveryJson.ACCEPT_AGGREGATED);
        if (api.status() == 404) {
            api.close();
        } else {
            byte[] body = api.requireSuccess().bytes();
            if (DiscoveryJson.isAggregated(api.header("Content-Type"))) {
                DiscoveryJson.Aggregated a = DiscoveryJson.parseAggregated(body, "GET /api");
                groups.addAll(a.groups());
                resources.putAll(a.resources());
                failures.putAll(a.failures());
            } else {
                allAggregated = false;
                List<String> versions = DiscoveryJson.parseApiVersions(body, "GET /api");
                if (!versions.isEmpty()) {
                    groups.add(new APIGroup("", versions, versions.getFirst()));
                }
            }
        }

        ApiResponse apis = get("/apis", DiscoveryJson.ACCEPT_AGGREGATED);
        byte[] body = apis.requireSuccess().bytes();
        if (DiscoveryJson.isAggregated(apis.header("Content-Type"))) {
            DiscoveryJson.Aggregated a = DiscoveryJson.parseAggregated(body, "GET /apis");
            groups.addAll(a.groups());
            resources.putAll(a.resources());
            failures.putAll(a.failures());
        } else {
            allAggregated = false;
            groups.addAll(DiscoveryJson.parseGroupList(body, "GET /apis"));
        }
        return new Download(List.copyOf(groups), allAggregated ? resources : null, failures);
    }

    private ApiResponse get(String path, String accept) {
        return transport.send(ApiRequest.get(resolve(path)).withHeader("Accept", accept));
    }

    private URI resolve(String path) {
        String base = transport.server().toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return URI.create(base + path);
    }
}
