package codegencompare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Runs fabric8's and kubeloop's code generators on the same real-world CRDs and prints a Markdown
 * report (see README.md). Each generator and the code it writes run in class loaders of their own
 * (the libraries need incompatible versions of fabric8's model and of Jackson), so every call into
 * them is reflective; this class itself sees only Jackson 2, used as the neutral YAML/JSON reader.
 *
 * <p>Usage: {@code CodegenCompare <fixtures dir> <work dir> [fixture…]}, with the class paths in
 * {@code <work dir>/classpath/<profile>.txt} as run.sh writes them.
 */
public final class CodegenCompare {

    static final ObjectMapper JSON = new ObjectMapper();
    static final YAMLMapper YAML = new YAMLMapper();

    /** A CRD and its example objects. */
    record Fixture(String name, Path crdFile, JsonNode crd, List<Path> examples) {

        static Fixture read(Path dir) throws IOException {
            JsonNode crd = null;
            try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(dir.resolve("crd.yaml").toFile())) {
                for (JsonNode doc : docs.readAll()) {
                    if (crd == null && "CustomResourceDefinition".equals(doc.path("kind").asText())) {
                        crd = doc;
                    }
                }
            }
            try (Stream<Path> files = Files.list(dir.resolve("examples"))) {
                return new Fixture(dir.getFileName().toString(), dir.resolve("crd.yaml"), crd,
                        files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList());
            }
        }

        String id() {
            return name.replace('-', '_');
        }

        String kind() {
            return crd.path("spec").path("names").path("kind").asText();
        }

        String group() {
            return crd.path("spec").path("group").asText();
        }

        List<String> versions() {
            List<String> versions = new ArrayList<>();
            crd.path("spec").path("versions").forEach(v -> versions.add(v.path("name").asText()));
            return versions;
        }
    }

    /** The storage version's openAPIV3Schema of a CRD, or null if there is none. */
    static JsonNode storageSchema(JsonNode crd) {
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("storage").asBoolean()) {
                return version.path("schema").get("openAPIV3Schema");
            }
        }
        return null;
    }

    /** What one generator did with one fixture. */
    static final class Result {
        final String generator;
        final Fixture fixture;
        String generateError;
        int files;
        long lines;
        Boolean compiles;
        int errors;
        String firstError;
        int warnings;
        final Map<String, Integer> warningKinds = new TreeMap<>();
        int descriptions;
        int descriptionsInFull;
        int descriptionsStarted;
        int roundTripOk;
        final List<String> roundTripFailures = new ArrayList<>();
        final List<String> crdErrors = new ArrayList<>();
        boolean crdFallbackUsed;
        List<String> schemaDifferences;
        List<String> schemaDifferencesAnyEnumOrder;
        final Map<String, Integer> keywords = new TreeMap<>();

        Result(String generator, Fixture fixture) {
            this.generator = generator;
            this.fixture = fixture;
        }
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        System.setProperty("slf4j.internal.verbosity", "ERROR"); // no "no SLF4J providers" notice
        Path fixturesDir = Path.of(args[0]);
        Path work = Path.of(args[1]);
        List<Fixture> fixtures = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(fixturesDir)) {
            List<String> only = List.of(args).subList(2, args.length); // optional: fixture names to run
            for (Path dir : dirs.filter(d -> Files.exists(d.resolve("crd.yaml"))).sorted().toList()) {
                if (!only.isEmpty() && !only.contains(dir.getFileName().toString())) {
                    continue;
                }
                fixtures.add(Fixture.read(dir));
            }
        }
        List<Generator> generators = List.of(
                new Fabric8(classpath(work, "fabric8-generator"), classpath(work, "fabric8-runtime"),
                        classpath(work, "fabric8-crd-generator")),
                new Kubeloop(classpath(work, "kubeloop")));
        List<Result> results = new ArrayList<>();
        for (Fixture fixture : fixtures) {
            for (Generator generator : generators) {
                long t = System.nanoTime();
                System.err.print(generator.name() + " " + fixture.name() + " … ");
                results.add(measure(generator, fixture, work.resolve("work").resolve(generator.name()).resolve(fixture.name())));
                System.err.println(Duration.ofNanos(System.nanoTime() - t).toMillis() + " ms");
            }
        }
        String report = Report.render(work, fixtures, generators, results, Duration.ofNanos(System.nanoTime() - start));
        System.out.print(report);
        Files.writeString(work.resolve("RESULTS.md"), report);
    }

    static Result measure(Generator generator, Fixture fixture, Path dir) throws IOException {
        Result r = new Result(generator.name(), fixture);
        deleteRecursively(dir);
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(src);
        Map<String, String> kinds;
        try {
            kinds = generator.generate(fixture, src);
        } catch (Throwable t) {
            r.generateError = message(t);
            return r;
        }

        // Size, and how many of the schema's descriptions made it into the source text
        List<Path> sources;
        try (Stream<Path> files = Files.walk(src)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        StringBuilder text = new StringBuilder();
        for (Path file : sources) {
            for (String line : Files.readAllLines(file)) {
                r.lines += line.isBlank() ? 0 : 1;
                text.append(alphanumerics(line.replaceAll("&(#\\d+|[a-zA-Z]+);", ""))); // HTML entities
            }
        }
        r.files = sources.size();
        String sourceText = text.toString();
        List<String> descriptions = new ArrayList<>();
        Trees.descriptions(Trees.normalizeSchema(storageSchema(fixture.crd()), false, false), descriptions);
        r.descriptions = descriptions.size();
        for (String description : descriptions) {
            String flat = description.strip().replace('\n', ' ');
            int dot = flat.indexOf(". ");
            r.descriptionsInFull += sourceText.contains(alphanumerics(description)) ? 1 : 0;
            r.descriptionsStarted += sourceText.contains(alphanumerics(dot > 0 ? flat.substring(0, dot + 1) : flat)) ? 1 : 0;
        }

        compile(sources, generator.runtime(), classes, r);
        if (!r.compiles) {
            return r;
        }

        // Examples: YAML → generated class → JSON, compared with the YAML read as a plain tree
        try (URLClassLoader loader = loader(generator.runtime(), classes)) {
            for (Path example : fixture.examples()) {
                String yaml = Files.readString(example);
                JsonNode original = YAML.readTree(yaml);
                String apiVersion = original.path("apiVersion").asText();
                String name = example.getFileName().toString();
                try {
                    String className = kinds.get(apiVersion.substring(apiVersion.indexOf('/') + 1));
                    if (className == null) {
                        throw new IllegalStateException("no generated class for " + apiVersion);
                    }
                    Class<?> type = Class.forName(className, true, loader);
                    String json = withLoader(loader, () -> generator.roundTrip(type, yaml));
                    List<String> differences = Trees.differences(original, JSON.readTree(json), Integer.MAX_VALUE, "written");
                    if (differences.isEmpty()) {
                        r.roundTripOk++;
                    } else {
                        r.roundTripFailures.add(name + ": " + differences.size() + " differing paths, first "
                                + differences.getFirst());
                    }
                } catch (Throwable t) {
                    r.roundTripFailures.add(name + ": " + message(t));
                }
            }
        }

        // Java → CRD, on the classes of every version the generator wrote; if that fails, once more on
        // the generator's fallback class path, if it has one
        List<List<Path>> classpaths = new ArrayList<>(List.of(generator.crdGenerator()));
        if (generator.crdGeneratorFallback() != null) {
            classpaths.add(generator.crdGeneratorFallback());
        }
        for (int attempt = 0; attempt < classpaths.size() && r.schemaDifferences == null; attempt++) {
            Path out = dir.resolve(attempt == 0 ? "crd" : "crd-fallback");
            try (URLClassLoader loader = loader(classpaths.get(attempt), classes)) {
                Files.createDirectories(out);
                JsonNode crd = withLoader(loader, () -> generator.crd(loader, List.copyOf(kinds.values()), out));
                JsonNode schema = storageSchema(crd);
                if (schema == null) {
                    throw new IllegalStateException("the regenerated CRD has no storage version");
                }
                Trees.countKeywords(Trees.normalizeSchema(schema, false, false), r.keywords);
                JsonNode original = storageSchema(fixture.crd());
                r.schemaDifferences = Trees.differences(Trees.normalizeSchema(original, true, false),
                        Trees.normalizeSchema(schema, true, false), Integer.MAX_VALUE, "regenerated");
                r.schemaDifferencesAnyEnumOrder = Trees.differences(Trees.normalizeSchema(original, true, true),
                        Trees.normalizeSchema(schema, true, true), Integer.MAX_VALUE, "regenerated");
                r.crdFallbackUsed = attempt > 0;
            } catch (Throwable t) {
                r.crdErrors.add(message(t));
            }
        }
        return r;
    }

    /** Compiles with javac -Xlint:all, counting warnings and errors. */
    static void compile(List<Path> sources, List<Path> classpath, Path classes, Result r) throws IOException {
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-Xlint:all", "-Xmaxwarns", "1000000", "-Xmaxerrs", "1000000",
                    "-proc:none", "--release", "21", "-encoding", "UTF-8",
                    "-classpath", String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()),
                    "-d", classes.toString());
            r.compiles = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources)).call();
        }
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            switch (d.getKind()) {
                case ERROR -> {
                    r.errors++;
                    if (r.firstError == null) {
                        r.firstError = (d.getSource() == null ? "" : Path.of(d.getSource().toUri()).getFileName() + ":"
                                + d.getLineNumber() + ": ") + d.getMessage(Locale.ROOT).lines().findFirst().orElse("");
                    }
                }
                case WARNING, MANDATORY_WARNING -> {
                    r.warnings++;
                    r.warningKinds.merge(d.getCode(), 1, Integer::sum);
                }
                default -> {}
            }
        }
    }

    // ---- helpers ----

    interface Action<T> {
        T run() throws Throwable;
    }

    /** Runs {@code action} with {@code loader} as the thread's context class loader. */
    static <T> T withLoader(ClassLoader loader, Action<T> action) throws Throwable {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Calls the public method {@code name} whose parameters accept {@code args}; static if {@code target} is a Class. */
    static Object call(Object target, String name, Object... args) throws Throwable {
        boolean isStatic = target instanceof Class<?>;
        Class<?> type = isStatic ? (Class<?>) target : target.getClass();
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers()) == isStatic && accepts(m.getParameterTypes(), args)) {
                try {
                    return m.invoke(isStatic ? null : target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
        throw new NoSuchMethodException(type.getName() + "." + name + " for " + Arrays.toString(args));
    }

    private static boolean accepts(Class<?>[] parameters, Object[] args) {
        if (parameters.length != args.length) {
            return false;
        }
        for (int i = 0; i < args.length; i++) {
            if (args[i] != null && !parameters[i].isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    static List<Class<?>> loadAll(ClassLoader loader, List<String> names) throws ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            classes.add(Class.forName(name, true, loader));
        }
        return classes;
    }

    /** A loader for {@code jars} (plus a classes directory) that sees nothing of this tool's class path. */
    static URLClassLoader loader(List<Path> jars, Path classes) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            urls.add(jar.toUri().toURL());
        }
        if (classes != null) {
            urls.add(classes.toUri().toURL());
        }
        return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    static List<Path> classpath(Path work, String profile) throws IOException {
        return Arrays.stream(Files.readString(work.resolve("classpath").resolve(profile + ".txt")).trim().split(java.io.File.pathSeparator))
                .map(Path::of).toList();
    }

    /** The version of {@code artifact} in a profile's class path, read from its jar's file name. */
    static String version(Path work, String profile, String artifact) {
        try {
            for (Path jar : classpath(work, profile)) {
                String file = jar.getFileName().toString();
                if (file.startsWith(artifact + "-") && Character.isDigit(file.charAt(artifact.length() + 1))) {
                    return file.substring(artifact.length() + 1, file.length() - ".jar".length());
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "(unknown version)";
    }

    static String message(Throwable t) {
        StringBuilder text = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String line = c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage().lines().findFirst().orElse(""));
            if (text.indexOf(line) < 0) {
                text.append(text.isEmpty() ? "" : " ← ").append(line);
            }
        }
        String s = text.toString().replace("|", "\\|").replace("`", "'");
        return s.length() > 300 ? s.substring(0, 297) + "…" : s;
    }

    private static String alphanumerics(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().filter(Character::isLetterOrDigit).forEach(out::appendCodePoint);
        return out.toString();
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
