package io.kubeloop.codegen.internal;

/**
 * The Java type of one value of a generated model of a built-in kind, as seen from the compilation unit
 * that uses it: its source text, its erasure's class literal text, how the generated reader reads it, and
 * its shape, which decides how a record's constructor freezes it and which builder methods it gets.
 *
 * <p>Invariants: {@code element} is set for lists and maps only (their item's type); {@code builder} is
 * set only for records with a builder (the record's name as seen from the unit). Immutable.
 */
record ModelType(String text, String rawClass, Read read, Shape shape, ModelType element, String builder) {

    /** What a value of the type is, for freezing and for the builder's methods. */
    enum Shape {
        /** Immutable by itself: strings, numbers, booleans, times, quantities, records. */
        VALUE,
        /** A list of values of {@code element}. */
        LIST,
        /** A map from strings to values of {@code element}. */
        MAP,
        /** Free-form JSON (maps, lists, scalars), frozen deeply. */
        UNTYPED
    }

    static ModelType value(String text, Read read) {
        return new ModelType(text, JavaText.rawType(text), read, Shape.VALUE, null, null);
    }

    /** True when freezing must look into the items: a list or map of lists, maps or untyped values. */
    boolean freezesDeeply() {
        return shape == Shape.UNTYPED || ((shape == Shape.LIST || shape == Shape.MAP) && element.shape != Shape.VALUE);
    }
}
