package io.kubeloop.codegen.internal;

import java.util.Set;
import java.util.TreeSet;

/**
 * The imports of one generated compilation unit, collected while its types are mapped and rendered and
 * written sorted.
 *
 * <p>Invariant: each name is a fully qualified type name and appears once. Not thread-safe: one instance
 * per source file, shared by the classes that write it.
 */
final class ImportSet {

    /** The package of kubeloop's API types ({@code ObjectMeta}, {@code Kind}…), with its trailing dot. */
    static final String API = "io.kubeloop.api.";

    /** The package of the CRD schema annotations ({@code Required}, {@code Format}…), with its trailing dot. */
    static final String CRD = "io.kubeloop.api.crd.";

    private final Set<String> names = new TreeSet<>();

    /** Adds the fully qualified type name {@code name} (again: no change). */
    void add(String name) {
        names.add(name);
    }

    /** The names added, sorted. */
    Iterable<String> sorted() {
        return names;
    }
}
