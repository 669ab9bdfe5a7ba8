package io.kubeloop.client.discovery;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.GroupKind;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersionKind;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * A {@link RestMapper} that builds itself from discovery on first use and, on a miss, invalidates
 * discovery and tries again once, as client-go's {@code DeferredDiscoveryRESTMapper} behind kubectl's
 * short-name expander: a resource created since the cache was written (a new CRD) is found, a
 * misspelled one costs one refetch and then fails with {@link NoMatchException}.
 *
 * <p>The retry happens only when the discovery client is not {@link DiscoveryClient#fresh() fresh},
 * i.e. it answered from data older than this process's last invalidation. Over a
 * {@link CachedDiscoveryClient} that is kubectl's behaviour. Over an {@link HttpDiscoveryClient}
 * (always fresh) the first snapshot is kept until {@link #reset()}; long-lived processes that expect
 * new CRDs call {@code reset()} when they see one. Partial discovery results are used as they are.
 *
 * <p>Thread-safe: the snapshot is swapped under a lock, lookups run on an immutable snapshot.
 */
public final class DiscoveryRestMapper implements RestMapper {

    private final DiscoveryClient discovery;
    private final ReentrantLock lock = new ReentrantLock();
    /** The current snapshot, null until first use and after reset; guarded by {@code lock}. */
    @GuardedBy("lock")
    private SnapshotRestMapper snapshot;

    public DiscoveryRestMapper(DiscoveryClient discovery) {
        this.discovery = Objects.requireNonNull(discovery, "discovery");
    }

    @Override
    public RestMapping resolve(String resourceOrKind) {
        return withRetry(m -> m.resolve(resourceOrKind));
    }

    @Override
    public RestMapping mapping(GroupKind groupKind) {
        return withRetry(m -> m.mapping(groupKind));
    }

    @Override
    public RestMapping mapping(GroupVersionKind groupVersionKind) {
        return withRetry(m -> m.mapping(groupVersionKind));
    }

    @Override
    public List<RestMapping> mappings(GroupKind groupKind) {
        List<RestMapping> found = snapshot().mappings(groupKind);
        if (found.isEmpty() && !discovery.fresh()) {
            reset();
            found = snapshot().mappings(groupKind);
        }
        return found;
    }

    @Override
    public List<GroupResource> expandCategory(String category) {
        return snapshot().expandCategory(category);
    }

    /** The discovery result the mapper currently answers from (loading it if needed). */
    public ServerResources discoveryResult() {
        return snapshot().discovery();
    }

    @Override
    public void reset() {
        lock.lock();
        try {
            discovery.invalidate();
            snapshot = null;
        } finally {
            lock.unlock();
        }
    }

    private RestMapping withRetry(Function<SnapshotRestMapper, RestMapping> lookup) {
        try {
            return lookup.apply(snapshot());
        } catch (NoMatchException miss) {
            if (discovery.fresh()) {
                throw miss;
            }
            reset();
            return lookup.apply(snapshot());
        }
    }

    private SnapshotRestMapper snapshot() {
        lock.lock();
        try {
            if (snapshot == null) {
                snapshot = new SnapshotRestMapper(discovery.serverGroupsAndResources());
            }
            return snapshot;
        } finally {
            lock.unlock();
        }
    }
}
