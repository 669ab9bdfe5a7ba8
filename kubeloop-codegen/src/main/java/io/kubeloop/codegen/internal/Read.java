package io.kubeloop.codegen.internal;

/**
 * How the generated reader reads one value from a {@code JsonInput}: as a call on a given input
 * variable, and as a {@code Function<JsonInput, T>} (a method reference or a lambda) for the items
 * of lists and the values of maps. Type names are as seen from the record that declares the value.
 *
 * <p>Invariant: {@code call} has one {@code %s}, where the input goes. Immutable and safe to share.
 */
record Read(String call, String function) {

    /** A method of {@code JsonInput} taking no argument ({@code string}, {@code int32}…). */
    static Read input(String method) {
        return new Read("%s." + method + "()", "JsonInput::" + method);
    }

    /** The reader a generated type declares ({@code readJson}). */
    static Read generated(String type) {
        return new Read(type + ".readJson(%s)", type + "::readJson");
    }

    /** A function expression for {@code call}, with a lambda parameter named {@code parameter}. */
    static Read lambda(String call, String parameter) {
        return new Read(call, parameter + " -> " + call.formatted(parameter));
    }

    String on(String input) {
        return call.formatted(input);
    }
}
