package io.kubeloop.models;

import io.kubeloop.api.Kind;
import io.kubeloop.models.apps.v1.JsonReaders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The generated models on the test's class path: every class, and the kinds by {@code apiVersion/kind}. */
final class Models {

    private Models() {}

    /** The compiled models' root (the module's classes directory). */
    static Path classesRoot() {
        try {
            return Path.of(JsonReaders.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every top-level generated class but the packages' {@code JsonReaders}, sorted by name. */
    static List<Class<?>> records() {
        Path root = classesRoot();
        try (Stream<Path> files = Files.walk(root.resolve("io/kubeloop/models"))) {
            return files.map(root::relativize)
                    .map(Path::toString)
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.endsWith("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .filter(n -> !n.endsWith(".JsonReaders") && !n.contains(".internal."))
                    .sorted()
                    .<Class<?>>map(Models::load)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The records of resources' kinds, by {@code apiVersion + "/" + kind} ({@code apps/v1/Deployment}). */
    static Map<String, Class<?>> kinds() {
        Map<String, Class<?>> kinds = new TreeMap<>();
        for (Class<?> type : records()) {
            Kind kind = type.getAnnotation(Kind.class);
            if (kind != null) {
                String apiVersion = kind.group().isEmpty() ? kind.version() : kind.group() + "/" + kind.version();
                String name = kind.kind().isEmpty() ? type.getSimpleName() : kind.kind();
                kinds.put(apiVersion + "/" + name, type);
            }
        }
        return kinds;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
