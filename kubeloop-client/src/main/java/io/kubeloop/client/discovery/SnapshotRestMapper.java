package io.kubeloop.client.discovery;

import io.kubeloop.api.GroupKind;
import io.kubeloop.api.GroupResource;
import io.kubeloop.api.GroupVersion;
import io.kubeloop.api.GroupVersionKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link RestMapper} over one discovery result, never refreshed: client-go's
 * {@code NewDiscoveryRESTMapper} (a priority mapper over every group version) wrapped in kubectl's
 * short-name expander.
 *
 * <p>Priority, highest first: the core {@code v1}; then for each group in the server's order its
 * preferred version followed by its other versions; then any version of each group. Among
 * candidates, the first pattern that matches exactly one wins; if a pattern matches several, only
 * those stay in the race; several left at the end is an {@link AmbiguousMatchException}.
 *
 * <p>Known difference from kubectl: a short name with an explicit version
 * ({@code hpa.v1.autoscaling}) keeps the version; kubectl's expander drops it and uses the preferred
 * version.
 *
 * <p>Immutable and thread-safe. {@link #reset()} does nothing.
 */
public final class SnapshotRestMapper implements RestMapper {

    /** One top-level resource in one group version, in discovery order. */
    private record Entry(APIResource resource) {
        GroupVersion gv() {
            return resource.groupVersion();
        }
    }

    /** A priority pattern; a null version matches any version. */
    private record Pattern(String group, String version) {
        boolean matches(GroupVersion gv) {
            return gv.group().equals(group) && (version == null || gv.version().equals(version));
        }
    }

    /** A short name of a resource: {@code deploy} in {@code apps} stands for {@code deployments}. */
    private record Shortcut(String group, String shortName, String resource) {}

    private final ServerResources discovery;
    private final List<Entry> entries = new ArrayList<>();
    private final List<Pattern> priority = new ArrayList<>();
    private final List<Shortcut> shortcuts = new ArrayList<>();

    /** A mapper over this (possibly partial) discovery result. */
    public SnapshotRestMapper(ServerResources discovery) {
        this.discovery = Objects.requireNonNull(discovery, "discovery");
        priority.add(new Pattern("", "v1"));
        for (APIGroup g : discovery.groups()) {
            if (discovery.resources().containsKey(g.preferredGroupVersion())) {
                priority.add(new Pattern(g.name(), g.preferredVersion()));
            }
            for (GroupVersion gv : g.groupVersions()) {
                if (!gv.version().equals(g.preferredVersion())
                        && discovery.resources().containsKey(gv)) {
                    priority.add(new Pattern(g.name(), gv.version()));
                }
            }
        }
        for (APIGroup g : discovery.groups()) {
            priority.add(new Pattern(g.name(), null));
        }
        for (APIResourceList list : discovery.resourceLists()) {
            for (APIResource r : list.topLevelResources()) {
                entries.add(new Entry(r));
                for (String s : r.shortNames()) {
                    shortcuts.add(new Shortcut(r.group(), s, r.name()));
                }
            }
        }
    }

    /** The discovery result this mapper answers from. */
    public ServerResources discovery() {
        return discovery;
    }

    @Override
    public RestMapping resolve(String resourceOrKind) {
        Objects.requireNonNull(resourceOrKind, "resourceOrKind");
        String arg = resourceOrKind.trim();
        if (arg.isEmpty()) {
            throw new NoMatchException(resourceOrKind, "a resource type must not be empty");
        }
        String[] dots = arg.split("\\.", 3);
        String firstName = dots[0];
        String afterFirstDot = arg.indexOf('.') < 0 ? "" : arg.substring(arg.indexOf('.') + 1);
        AmbiguousMatchException ambiguity = null;

        // resource.version.group, then resource.group / resource
        if (dots.length == 3) {
            try {
                RestMapping m = resourceFor(arg, dots[2], dots[1], firstName);
                if (m != null) {
                    return m;
                }
            } catch (AmbiguousMatchException e) {
                ambiguity = e;
            }
        }
        try {
            RestMapping m = resourceFor(arg, afterFirstDot, null, firstName);
            if (m != null) {
                return m;
            }
        } catch (AmbiguousMatchException e) {
            ambiguity = ambiguity == null ? e : ambiguity;
        }

        // Kind.version.group, then Kind.group / Kind
        if (dots.length == 3 && !firstName.isEmpty()) {
            List<Entry> exact = kindCandidates(dots[2], dots[1], firstName);
            if (!exact.isEmpty()) {
                return RestMapping.of(exact.getFirst().resource());
            }
        }
        if (!firstName.isEmpty()) {
            try {
                RestMapping m = pick(arg, kindCandidates(afterFirstDot, null, firstName));
                if (m != null) {
                    return m;
                }
            } catch (AmbiguousMatchException e) {
                ambiguity = ambiguity == null ? e : ambiguity;
            }
        }
        if (ambiguity != null) {
            throw ambiguity;
        }
        throw new NoMatchException(resourceOrKind, "the server doesn't have a resource type \"" + firstName + "\"");
    }

    @Override
    public RestMapping mapping(GroupKind groupKind) {
        Objects.requireNonNull(groupKind, "groupKind");
        RestMapping m = pick(groupKind.toString(), kindCandidates(groupKind.group(), null, groupKind.kind()));
        if (m == null) {
            throw new NoMatchException(
                    groupKind.toString(),
                    "no matches for kind \"" + groupKind.kind() + "\" in group \"" + groupKind.group() + "\"");
        }
        return m;
    }

    @Override
    public RestMapping mapping(GroupVersionKind gvk) {
        Objects.requireNonNull(gvk, "groupVersionKind");
        List<Entry> found = kindCandidates(gvk.group(), gvk.version(), gvk.kind());
        if (found.isEmpty()) {
            throw new NoMatchException(
                    gvk.format(), "no matches for kind \"" + gvk.kind() + "\" in version \"" + gvk.apiVersion() + "\"");
        }
        return RestMapping.of(found.getFirst().resource());
    }

    @Override
    public List<RestMapping> mappings(GroupKind groupKind) {
        Objects.requireNonNull(groupKind, "groupKind");
        List<Entry> found = kindCandidates(groupKind.group(), null, groupKind.kind());
        List<Entry> ordered = new ArrayList<>();
        for (Pattern p : priority) {
            for (Entry e : found) {
                if (p.matches(e.gv()) && !ordered.contains(e)) {
                    ordered.add(e);
                }
            }
        }
        return ordered.stream().map(e -> RestMapping.of(e.resource())).toList();
    }

    @Override
    public List<GroupResource> expandCategory(String category) {
        Set<GroupResource> out = new LinkedHashSet<>();
        for (Entry e : entries) {
            if (e.resource().categories().contains(category)) {
                out.add(new GroupResource(e.gv().group(), e.resource().name()));
            }
        }
        return List.copyOf(out);
    }

    @Override
    public void reset() {
        // a snapshot never changes
    }

    /** The resource path of kubectl's mapping: expand short names, then match plural or singular. */
    private RestMapping resourceFor(String input, String group, String version, String resource) {
        if (resource.isEmpty()) {
            return null;
        }
        String[] expanded = expandShortcut(group, resource);
        String g = expanded[0];
        String r = expanded[1].toLowerCase(Locale.ROOT);
        List<Entry> found = new ArrayList<>();
        for (Entry e : entries) {
            boolean groupOk = g.isEmpty() || e.gv().group().equals(g);
            boolean versionOk = version == null || e.gv().version().equals(version);
            boolean nameOk =
                    e.resource().name().equals(r) || e.resource().singularName().equals(r);
            if (groupOk && versionOk && nameOk) {
                found.add(e);
            }
        }
        return pick(input, found);
    }

    /**
     * kubectl's short-name expansion: a full plural or singular name stays; else the first short name
     * (in discovery order) of the given group, or of any group when none is given; else, for a
     * given group, the first short name whose group starts with it.
     *
     * @return {group, resource}
     */
    private String[] expandShortcut(String group, String resource) {
        for (Entry e : entries) {
            if ((group.isEmpty() || e.gv().group().equals(group))
                    && (e.resource().name().equals(resource)
                            || e.resource().singularName().equals(resource))) {
                return new String[] {group, resource};
            }
        }
        for (Shortcut s : shortcuts) {
            if ((group.isEmpty() || s.group().equals(group)) && s.shortName().equals(resource)) {
                return new String[] {s.group(), s.resource()};
            }
        }
        if (!group.isEmpty()) {
            for (Shortcut s : shortcuts) {
                if (s.group().startsWith(group) && s.shortName().equals(resource)) {
                    return new String[] {s.group(), s.resource()};
                }
            }
        }
        return new String[] {group, resource};
    }

    /** Entries whose kind is {@code kind} (exactly or in lower case) in the group (and version, when given). */
    private List<Entry> kindCandidates(String group, String version, String kind) {
        List<Entry> found = new ArrayList<>();
        Set<GroupVersionKind> seen = new LinkedHashSet<>();
        for (Entry e : entries) {
            String k = e.resource().kind();
            boolean kindOk = k.equals(kind) || k.toLowerCase(Locale.ROOT).equals(kind);
            if (kindOk
                    && e.gv().group().equals(group)
                    && (version == null || e.gv().version().equals(version))
                    && seen.add(e.gv().withKind(k))) {
                found.add(e);
            }
        }
        return found;
    }

    /** Narrows candidates by priority; null when there are none. */
    private RestMapping pick(String input, List<Entry> candidates) {
        List<Entry> unique = new ArrayList<>(new LinkedHashSet<>(candidates));
        if (unique.isEmpty()) {
            return null;
        }
        if (unique.size() == 1) {
            return RestMapping.of(unique.getFirst().resource());
        }
        List<Entry> remaining = unique;
        for (Pattern p : priority) {
            List<Entry> matching =
                    remaining.stream().filter(e -> p.matches(e.gv())).toList();
            if (matching.size() == 1) {
                return RestMapping.of(matching.getFirst().resource());
            }
            if (matching.size() > 1) {
                remaining = matching;
            }
        }
        throw new AmbiguousMatchException(
                input, unique.stream().map(e -> RestMapping.of(e.resource())).toList());
    }
}
