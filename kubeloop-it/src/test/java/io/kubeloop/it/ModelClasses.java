package io.kubeloop.it;

import io.kubeloop.models.core.v1.Pod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The record classes of kubeloop-models on the class path (its jar or its classes directory). */
final class ModelClasses {

    private ModelClasses() {}

    static List<Class<?>> all() {
        try {
            URI location = Pod.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI();
            Path path = Path.of(location);
            if (Files.isDirectory(path)) {
                return classesUnder(path);
            }
            try (FileSystem jar = FileSystems.newFileSystem(path, Map.of())) {
                return classesUnder(jar.getPath("/"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Class<?>> classesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("io/kubeloop/models"))) {
            return files.map(p -> root.relativize(p).toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.endsWith("-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .filter(n -> !n.endsWith(".JsonReaders") && !n.contains(".internal."))
                    .sorted()
                    .<Class<?>>map(ModelClasses::load)
                    .toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
