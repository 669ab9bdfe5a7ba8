package io.kubeloop.codegen.internal;

/**
 * A type declared nested in a kind's record: a {@link RecordDecl} or an {@link EnumDecl}.
 *
 * <p>Its one job is to let a record list its nested types in declaration order. Thread-safety is that of
 * the implementations: a {@link RecordDecl} is mutable and confined to one {@link ModelWriter}.
 */
sealed interface TypeDecl permits RecordDecl, EnumDecl {

    /** The simple name of the type. */
    String name();
}
