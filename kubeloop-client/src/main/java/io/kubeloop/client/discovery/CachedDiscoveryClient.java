package io.kubeloop.client.discovery;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.kubeloop.api.GroupVersion;
import io.kubeloop.time.Durations;
import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery through kubectl's on-disk cache, file for file compatible with client-go's
 * {@code disk.CachedDiscoveryClient}: kubectl and kubeloop read what the other wrote.
 *
 * <p>Layout, in the directory of one server (see {@link DiscoveryCacheLocation}):
 * {@code servergroups.json} (an {@code APIGroupList}, core group first) and
 * {@code <group>/<version>/serverresources.json} ({@code v1/serverresources.json} for the core group),
 * each an {@code APIResourceList}. When the server answers aggregated discovery, every group version
 * learnt from it is written at once, as client-go does.
 *
 * <p>Freshness: a file is used while younger than the TTL (default 6 hours, kubectl 1.24+), judged by
 * its modification time against the clock. After {@link #invalidate()} only files this client wrote
 * since are used. A file that is missing, expired, ignored or unreadable is fetched through the
 * delegate and rewritten. Files are written to a temporary file and renamed (directories 0750, files
 * 0660 on POSIX file systems); write failures are logged and otherwise ignored.
 *
 * <p>Thread-safe: the bookkeeping of own files and freshness is guarded by a lock; file I/O happens
 * outside it.
 *
 * @see <a href="https://pkg.go.dev/k8s.io/client-go/discovery/cached/disk">client-go discovery/cached/disk</a>
 */
public final class CachedDiscoveryClient implements DiscoveryClient {

    /** kubectl's discovery cache TTL since 1.24. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(6);

    private static final Logger LOG = LoggerFactory.getLogger(CachedDiscoveryClient.class);
    private static final String GROUPS_FILE = "servergroups.json";
    private static final String RESOURCES_FILE = "serverresources.json";

    private final DiscoveryClient delegate;
    private final Path directory;
    private final Duration ttl;
    private final Ticker clock;

    private final ReentrantLock lock = new ReentrantLock();
    /** Files written by this client since the last invalidation; guarded by {@code lock}. */
    @GuardedBy("lock")
    private final Set<Path> ourFiles = new HashSet<>();
    /** True after {@link #invalidate()}: files not in {@code ourFiles} are ignored; guarded by {@code lock}. */
    @GuardedBy("lock")
    private boolean invalidated;
    /** True while every file read was one of {@code ourFiles}; guarded by {@code lock}. */
    @GuardedBy("lock")
    private boolean fresh = true;

    /**
     * A cache in {@code directory} (already the per-server directory) in front of {@code delegate}.
     *
     * @param delegate asked on a cache miss, usually an {@link HttpDiscoveryClient}
     * @param directory the server's cache directory, e.g. {@code ~/.kube/cache/discovery/127.0.0.1_6443}
     * @param ttl how long a file stays usable after it was written
     * @param clock the time files' ages are measured against
     */
    public CachedDiscoveryClient(DiscoveryClient delegate, Path directory, Duration ttl, Ticker clock) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.directory = Objects.requireNonNull(directory, "directory");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative: " + Durations.format(ttl));
        }
    }

    /**
     * The cache kubectl would use for {@code server} under {@code cacheDir}, with the default TTL and
     * the system clock.
     *
     * @param server the server URL exactly as the kubeconfig writes it
     */
    public static CachedDiscoveryClient forServer(DiscoveryClient delegate, Path cacheDir, String server) {
        return new CachedDiscoveryClient(
                delegate, DiscoveryCacheLocation.discoveryDir(cacheDir, server), DEFAULT_TTL, Ticker.system());
    }

    /** The server's cache directory. */
    public Path directory() {
        return directory;
    }

    @Override
    public List<APIGroup> serverGroups() {
        return groupsAndMaybeResources().groups();
    }

    @Override
    public APIResourceList serverResourcesForGroupVersion(GroupVersion groupVersion) {
        Path file = resourcesFile(groupVersion);
        byte[] cached = readCached(file);
        if (cached != null) {
            try {
                return DiscoveryJson.parseResourceList(cached, groupVersion, file.toString());
            } catch (DiscoveryException e) {
                LOG.debug("ignoring unreadable discovery cache file {}: {}", file, e.getMessage());
            }
        }
        APIResourceList live = delegate.serverResourcesForGroupVersion(groupVersion);
        if (!live.resources().isEmpty()) {
            write(file, DiscoveryJson.writeResourceList(live));
        }
        return live;
    }

    @Override
    public ServerResources serverGroupsAndResources() {
        HttpDiscoveryClient.Download d = groupsAndMaybeResources();
        if (d.resources() != null) {
            return new ServerResources(d.groups(), d.resources(), d.failures());
        }
        Map<GroupVersion, APIResourceList> resources = new LinkedHashMap<>();
        Map<GroupVersion, RuntimeException> failures = new LinkedHashMap<>(d.failures());
        Map<GroupVersion, Future<APIResourceList>> pending = new LinkedHashMap<>();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (APIGroup g : d.groups()) {
                for (GroupVersion gv : g.groupVersions()) {
                    pending.put(gv, executor.submit(() -> serverResourcesForGroupVersion(gv)));
                }
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
            throw new DiscoveryException("interrupted while reading discovery for " + directory, e);
        }
        return new ServerResources(d.groups(), resources, failures);
    }

    @Override
    public ServerVersion serverVersion() {
        return delegate.serverVersion();
    }

    @Override
    public void invalidate() {
        lock.lock();
        try {
            ourFiles.clear();
            fresh = true;
            invalidated = true;
        } finally {
            lock.unlock();
        }
        delegate.invalidate();
    }

    @Override
    public boolean fresh() {
        lock.lock();
        try {
            return fresh;
        } finally {
            lock.unlock();
        }
    }

    /** Groups from {@code servergroups.json}, or live (writing the files, resources too when aggregated). */
    private HttpDiscoveryClient.Download groupsAndMaybeResources() {
        Path file = directory.resolve(GROUPS_FILE);
        byte[] cached = readCached(file);
        if (cached != null) {
            try {
                return new HttpDiscoveryClient.Download(
                        DiscoveryJson.parseGroupList(cached, file.toString()), null, Map.of());
            } catch (DiscoveryException e) {
                LOG.debug("ignoring unreadable discovery cache file {}: {}", file, e.getMessage());
            }
        }
        HttpDiscoveryClient.Download live = delegate instanceof HttpDiscoveryClient http
                ? http.groupsAndMaybeResources()
                : new HttpDiscoveryClient.Download(delegate.serverGroups(), null, Map.of());
        if (!live.groups().isEmpty()) {
            write(file, DiscoveryJson.writeGroupList(live.groups()));
        }
        if (live.resources() != null) {
            live.resources().forEach((gv, list) -> write(resourcesFile(gv), DiscoveryJson.writeResourceList(list)));
        }
        return live;
    }

    private Path resourcesFile(GroupVersion gv) {
        Path dir = gv.isCore()
                ? directory.resolve(gv.version())
                : directory.resolve(gv.group()).resolve(gv.version());
        return dir.resolve(RESOURCES_FILE);
    }

    /** The file's bytes when it may be used, else null. */
    private byte[] readCached(Path file) {
        boolean ours;
        lock.lock();
        try {
            ours = ourFiles.contains(file);
            if (invalidated && !ours) {
                return null;
            }
        } finally {
            lock.unlock();
        }
        byte[] bytes;
        try {
            Instant modified = Files.getLastModifiedTime(file).toInstant();
            if (clock.instant().isAfter(modified.plus(ttl))) {
                return null;
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
        lock.lock();
        try {
            fresh = fresh && ours;
        } finally {
            lock.unlock();
        }
        return bytes;
    }

    private void write(Path file, byte[] bytes) {
        Path dir = file.getParent();
        Path tmp = null;
        try {
            boolean posix =
                    FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                            && dir.getFileSystem() == FileSystems.getDefault();
            if (posix) {
                Files.createDirectories(
                        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
            } else {
                Files.createDirectories(dir);
            }
            tmp = Files.createTempFile(dir, file.getFileName() + ".", "");
            Files.write(tmp, bytes);
            if (posix) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-rw----"));
            }
            lock.lock();
            try {
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
                ourFiles.add(file);
            } finally {
                lock.unlock();
            }
        } catch (IOException | UncheckedIOException | SecurityException e) {
            LOG.debug("failed to write discovery cache file {}: {}", file, e.toString());
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }
}
