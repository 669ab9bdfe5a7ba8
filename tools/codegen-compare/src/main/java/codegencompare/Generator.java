package codegencompare;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static codegencompare.CodegenCompare.YAML;
import static codegencompare.CodegenCompare.JSON;
import static codegencompare.CodegenCompare.loader;
import static codegencompare.CodegenCompare.version;

import codegencompare.CodegenCompare.Fixture;

/** A generator under test: both of its directions and the serializer of the code it writes. */
interface Generator {
    String name();

    /** Writes Java sources for the fixture under {@code src}; returns the kind's class per CRD version. */
    Map<String, String> generate(Fixture fixture, Path src) throws Throwable;

    /** The class path the generated code compiles and runs against. */
    List<Path> runtime();

    /** Reads a YAML object into {@code type} with the library's own serializer and writes it as JSON. */
    String roundTrip(Class<?> type, String yaml) throws Throwable;

    /** The class path the Java → CRD generator runs on (the compiled classes are added to it). */
    List<Path> crdGenerator();

    /**
     * A class path to run the Java → CRD generator on if it fails on {@link #crdGenerator()}, or
     * null; {@link #fallbackNote()} says what it changes.
     */
    default List<Path> crdGeneratorFallback() {
        return null;
    }

    default String fallbackNote() {
        return null;
    }

    /** The CRD that the Java → CRD generator writes for the kind's classes (one per version). */
    JsonNode crd(ClassLoader loader, List<String> classNames, Path out) throws Throwable;
}
