package io.kubeloop.codegen.internal;

import java.util.List;

/**
 * A record component: its Java and JSON names (no JSON name: the map of unknown properties),
 * annotations, type, description and how the generated reader reads it.
 *
 * <p>Invariant: {@code jsonName} is null only for the map of unknown properties, whose {@code read} is null
 * too. Immutable and safe to share.
 */
record Component(
        String javaName, String jsonName, List<String> annotations, String type, String description, Read read) {}
