package io.kubeloop.codegen.internal;

import io.kubeloop.codegen.CodegenException;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Class loaders over a build's class path (the Maven goals pass the project's), whose parent is the
 * generators' own loader, so that kubeloop's API types are shared.
 *
 * <p>Stateless.
 */
public final class ClassPaths {

    private ClassPaths() {}

    /**
     * A loader over {@code classpath} ({@link File#pathSeparator}-separated; null or empty for none).
     *
     * @throws CodegenException naming an entry that does not exist
     */
    public static URLClassLoader loader(String classpath, ClassLoader parent) {
        List<URL> urls = new ArrayList<>();
        if (classpath != null) {
            for (String entry : classpath.split(File.pathSeparator)) {
                if (entry.isBlank()) {
                    continue;
                }
                Path path = Path.of(entry);
                if (!Files.exists(path)) {
                    throw new CodegenException("class path entry does not exist: " + entry);
                }
                try {
                    urls.add(path.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new CodegenException("not a class path entry: " + entry, e);
                }
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), parent);
    }

    /**
     * Loads {@code name} (not initialized) from {@code loader}.
     *
     * @throws CodegenException naming the class and the class path when it cannot be loaded
     */
    public static Class<?> load(String name, ClassLoader loader, String classpath) {
        try {
            return Class.forName(name.strip(), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new CodegenException("cannot load class " + name.strip() + " from "
                    + (classpath == null || classpath.isBlank() ? "the class path" : classpath) + ": " + e);
        }
    }
}
