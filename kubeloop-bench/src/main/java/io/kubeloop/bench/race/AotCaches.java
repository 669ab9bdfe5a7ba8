package io.kubeloop.bench.race;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The JDK's ahead-of-time caches of the race's operator JVMs (JDK 24 and later, JEP 483/515: classes
 * loaded and linked, and method profiles, from a training run; no compiled code): per contender, one
 * unmeasured training round with {@code -XX:AOTMode=record}, then {@code -XX:AOTMode=create} on the
 * configuration it wrote, then every measured round of that contender starts with {@code
 * -XX:AOTCache} and {@code -XX:AOTMode=on} (a cache the JVM cannot use fails the round rather than
 * passing unnoticed). Every contender gets one the same way, as a deployed operator of any framework could.
 *
 * <p>Not thread-safe: for the harness's main thread.
 */
final class AotCaches {

    /** The training round's Foos: enough to run every code path of both phases. */
    static final int TRAINING_FOOS = 1_000;

    private final Path dir;
    private final Map<RaceContender, Path> caches = new HashMap<>();
    /** Per class-path directory, the jar of its files made for this run (the JDK archives classes from jars only). */
    private final Map<String, String> jars = new HashMap<>();

    AotCaches(Path dir) {
        this.dir = dir;
    }

    /** Whether this JDK (the operators run on the harness's) has ahead-of-time caches. */
    static boolean supported() {
        return Runtime.version().feature() >= 24;
    }

    /** How {@code contender}'s JVM starts with its cache; as it is before it was trained. */
    RaceRound.Launch launchFor(RaceContender contender) {
        Path cache = caches.get(contender);
        return cache == null
                ? RaceRound.Launch.plain()
                : new RaceRound.Launch(List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache), this::jarred);
    }

    /**
     * {@code classPath} with each directory replaced by a jar of its files, made once per run (a jar
     * made again would not match the cache), and entries that do not exist left out: the JDK refuses a
     * non-empty directory on the class path of an AOT cache.
     */
    String jarred(String classPath) {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                entries.add(jars.computeIfAbsent(entry, e -> jarOf(path).toString()));
            } else if (Files.isRegularFile(path)) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private Path jarOf(Path directory) {
        Path jar = dir.resolve("aot-classes-" + jars.size() + ".jar").toAbsolutePath();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(
                        new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot jar " + directory, e);
        }
        return jar;
    }

    /**
     * Trains {@code contender} once (a round of {@link #TRAINING_FOOS} Foos, or fewer when the race
     * runs fewer) and creates its cache; a second call for the same contender does nothing.
     *
     * @throws RuntimeException when the training round or the cache's creation fails
     */
    void train(RaceRound round, RaceContender contender, int foos) {
        if (caches.containsKey(contender)) {
            return;
        }
        String name = contender.label().replaceAll("[^A-Za-z0-9.-]", "_");
        Path configuration = dir.resolve("aot-" + name + ".aotconf").toAbsolutePath();
        Path cache = dir.resolve("aot-" + name + ".aot").toAbsolutePath();
        deleteIfExists(configuration);
        deleteIfExists(cache);
        long t0 = System.nanoTime();
        round.unrecorded()
                .run(
                        contender,
                        Math.min(foos, TRAINING_FOOS),
                        new RaceRound.Launch(
                                List.of(
                                        "-XX:AOTMode=record",
                                        "-XX:AOTConfiguration=" + configuration,
                                        "-Xlog:aot=error"),
                                this::jarred));
        OperatorProcess.createAotCache(contender, round.flags(), this::jarred, configuration, cache);
        caches.put(contender, cache);
        System.out.printf(
                Locale.ROOT,
                "(AOT cache of %s trained and created in %.1f s, %,d KiB)%n",
                contender.label(),
                (System.nanoTime() - t0) / 1e9,
                size(cache) / 1024);
    }

    private static void deleteIfExists(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
