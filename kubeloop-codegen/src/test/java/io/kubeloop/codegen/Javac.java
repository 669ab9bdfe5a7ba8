package io.kubeloop.codegen;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.spi.ToolProvider;

/** Compiles generated sources with the JDK's javac, all lint warnings as errors, and loads them. */
final class Javac {

    private Javac() {}

    /**
     * The source without its Javadoc comments: descriptions are not kept in a CRD written from records,
     * so records generated again from such a CRD lack the Javadoc text and are compared without it.
     */
    static String withoutJavadoc(String source) {
        return source.replaceAll("(?s)/\\*\\*.*?\\*/\\s*", "");
    }

    /**
     * Writes {@code sources} under {@code dir}/src, compiles them to {@code dir}/classes against the
     * test class path with {@code -Xlint:all -Werror}, and returns a loader of the classes.
     *
     * @throws AssertionError with javac's messages when compilation fails or warns
     */
    static URLClassLoader compile(List<GeneratedSource> sources, Path dir) {
        return compile(List.of(sources), dir);
    }

    /**
     * As {@link #compile(List, Path)}, with one javac run per group, the groups in parallel (one per
     * processor); the groups must not refer to each other (e.g. one CRD's records each).
     */
    static URLClassLoader compile(Collection<List<GeneratedSource>> groups, Path dir) {
        int threads = Math.max(1, Math.min(groups.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (List<GeneratedSource> group : groups) {
                runs.add(pool.submit(() -> run(group, dir)));
            }
            for (Future<?> run : runs) {
                run.get();
            }
            return new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, Javac.class.getClassLoader());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssertionError failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void run(List<GeneratedSource> sources, Path dir) {
        try {
            Path src = dir.resolve("src");
            Path classes = Files.createDirectories(dir.resolve("classes"));
            List<String> args = new ArrayList<>(List.of(
                    "-Xlint:all",
                    "-Werror",
                    "-proc:none",
                    "--release",
                    "21",
                    "-encoding",
                    "UTF-8",
                    "-classpath",
                    System.getProperty("java.class.path"),
                    "-d",
                    classes.toString()));
            for (Path file : ModelGenerator.write(sources, src)) {
                args.add(file.toString());
            }
            ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow(() -> new AssertionError("no javac"));
            StringWriter out = new StringWriter();
            PrintWriter printer = new PrintWriter(out);
            int rc = javac.run(printer, printer, args.toArray(String[]::new));
            printer.flush();
            String messages = out.toString();
            if (rc != 0 || !messages.isBlank()) {
                throw new AssertionError("javac (exit " + rc + ") said:\n" + messages);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
