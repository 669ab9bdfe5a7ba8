package io.kubeloop.codegen.internal;

import java.util.Map;

/**
 * A nested enum for a string enum schema: its name, Javadoc text (already escaped) and constants, Java name
 * to JSON value, in the schema's order.
 *
 * <p>Invariant: the Java names are unique within the enum. Immutable once built (the map is not changed after
 * construction), so safe to share.
 */
record EnumDecl(String name, String javadoc, Map<String, String> constants) implements TypeDecl {}
