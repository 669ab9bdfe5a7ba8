package io.kubeloop.codegen.internal;

import java.util.List;

/**
 * A Java type for a schema, with the annotations the schema needs beyond what the type says and how
 * the generated reader reads a value of it.
 *
 * <p>Immutable and safe to share; the annotations list is not changed after construction.
 */
record TypeRef(String type, List<String> annotations, Read read) {}
