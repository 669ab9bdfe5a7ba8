package io.kubeloop.apiserver.internal.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The served resources: built-ins plus those defined by CustomResourceDefinitions at run time.
 * Discovery, routing and the resource layer all read it.
 *
 * <p>Every change bumps {@link #revision()}, so discovery documents (and their ETags) can be cached per
 * revision.
 *
 * <p><b>Thread safety.</b> Thread-safe: readers see an immutable snapshot (copy-on-write under a lock).
 */
public final class ResourceRegistry {

    /** An API group with its served versions, preferred first. */
    public record Group(String name, List<String> versions) {

        /** The preferred (first) version. */
        public String preferredVersion() {
            return versions.getFirst();
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicLong revision = new AtomicLong(1);
    /** Called after every change of the served set, on the changing thread. */
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Replaced wholesale under {@link #lock}: "group/version/plural" -> definition, in serving order. */
    private volatile Map<String, ResourceDefinition> byPath;

    /** A registry serving the {@link BuiltinResources}. */
    public ResourceRegistry() {
        Map<String, ResourceDefinition> m = new LinkedHashMap<>();
        for (ResourceDefinition d : BuiltinResources.all()) {
            m.put(path(d.group(), d.version(), d.plural()), d);
        }
        this.byPath = m;
    }

    private static String path(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }

    /** The definition served at {@code group/version/plural}. */
    public Optional<ResourceDefinition> find(String group, String version, String plural) {
        return Optional.ofNullable(byPath.get(path(group, version, plural)));
    }

    /** All served definitions in serving order. */
    public List<ResourceDefinition> all() {
        return List.copyOf(byPath.values());
    }

    /** The definitions of one group version, in serving order. */
    public List<ResourceDefinition> inGroupVersion(String group, String version) {
        return byPath.values().stream()
                .filter(d -> d.group().equals(group) && d.version().equals(version))
                .toList();
    }

    /** Every named group (not core) with its versions, preferred first (kube-aware order for CRDs). */
    public List<Group> groups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ResourceDefinition d : byPath.values()) {
            if (!d.group().isEmpty()) {
                List<String> vs = groups.computeIfAbsent(d.group(), g -> new ArrayList<>());
                if (!vs.contains(d.version())) {
                    vs.add(d.version());
                }
            }
        }
        List<Group> out = new ArrayList<>();
        groups.forEach((g, vs) -> {
            vs.sort(Comparator.comparing(VersionPriority::key).reversed());
            out.add(new Group(g, List.copyOf(vs)));
        });
        return out;
    }

    /** A group by name. */
    public Optional<Group> group(String name) {
        return groups().stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /** Increases with every change of the served set. */
    public long revision() {
        return revision.get();
    }

    /**
     * Serves {@code definitions} for {@code owner} (a CRD name), replacing what that owner served before.
     * Built-in definitions cannot be replaced.
     */
    public void replace(String ownerGroup, String ownerPlural, List<ResourceDefinition> definitions) {
        lock.lock();
        try {
            Map<String, ResourceDefinition> m = new LinkedHashMap<>();
            byPath.forEach((k, d) -> {
                if (!(d.custom() && d.group().equals(ownerGroup) && d.plural().equals(ownerPlural))) {
                    m.put(k, d);
                }
            });
            for (ResourceDefinition d : definitions) {
                m.putIfAbsent(path(d.group(), d.version(), d.plural()), d);
            }
            byPath = m;
            revision.incrementAndGet();
        } finally {
            lock.unlock();
        }
        for (Runnable listener : listeners) {
            listener.run();
        }
    }

    /**
     * Calls {@code listener} after every change of the served set (a CRD served, changed or removed), on the
     * thread that made the change, outside the registry's lock. It must be quick and must not throw.
     */
    public void addListener(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Stops calling {@code listener}. */
    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    /** Stops serving the custom resource {@code plural.group}. */
    public void remove(String group, String plural) {
        replace(group, plural, List.of());
    }

    /** Kube-aware version ordering: GA &gt; beta &gt; alpha, higher numbers first, others last. */
    static final class VersionPriority {

        private VersionPriority() {}

        /** A sortable key; larger sorts first after reversal. */
        static String key(String v) {
            Matcher m = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?").matcher(v);
            if (!m.matches()) {
                return "0" + invert(v);
            }
            int stage = m.group(2) == null ? 3 : m.group(2).equals("beta") ? 2 : 1;
            long major = Long.parseLong(m.group(1));
            long minor = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
            return stage + String.format("%010d%010d", major, minor);
        }

        private static String invert(String s) {
            StringBuilder b = new StringBuilder();
            for (char c : s.toCharArray()) {
                b.append((char) (0xFFFF - c));
            }
            return b.toString();
        }
    }
}
