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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
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

    /** fabric8's java-generator and crd-generator (v2), and KubernetesSerialization. */
    static final class Fabric8 implements Generator {
        private final List<Path> generatorPath;
        private final List<Path> runtime;
        private final List<Path> crdGenerator;
        private ClassLoader generatorLoader;

        Fabric8(List<Path> generatorPath, List<Path> runtime, List<Path> crdGenerator) {
            this.generatorPath = generatorPath;
            this.runtime = runtime;
            this.crdGenerator = crdGenerator;
        }

        @Override
        public String name() {
            return "fabric8";
        }

        @Override
        public Map<String, String> generate(Fixture fixture, Path src) throws Throwable {
            if (generatorLoader == null) {
                generatorLoader = loader(generatorPath, null);
            }
            // The generator's package is the reversed group plus the version; give each fixture its own.
            List<String> groupParts = Arrays.asList(fixture.group().replace('-', '_').split("\\."));
            java.util.Collections.reverse(groupParts);
            Map<String, String> packageOverrides = new LinkedHashMap<>();
            Map<String, String> classes = new LinkedHashMap<>();
            for (String version : fixture.versions()) {
                String pkg = "gen.fabric8." + fixture.id() + "." + version;
                packageOverrides.put(String.join(".", groupParts) + "." + version, pkg);
                classes.put(version, pkg + "." + fixture.kind());
            }
            return withLoader(generatorLoader, () -> {
                Class<?> configClass = generatorLoader.loadClass("io.fabric8.java.generator.Config");
                Object builder = call(configClass, "builder"); // every other option at its default
                call(builder, "packageOverrides", packageOverrides);
                Object config = call(builder, "build");
                Object generator = generatorLoader.loadClass("io.fabric8.java.generator.FileJavaGenerator")
                        .getConstructor(configClass, java.io.File.class)
                        .newInstance(config, fixture.crdFile().toFile());
                call(generator, "run", src.toFile());
                return classes;
            });
        }

        @Override
        public List<Path> runtime() {
            return runtime;
        }

        @Override
        public String roundTrip(Class<?> type, String yaml) throws Throwable {
            Object serialization = type.getClassLoader()
                    .loadClass("io.fabric8.kubernetes.client.utils.KubernetesSerialization")
                    .getConstructor()
                    .newInstance();
            return (String) call(serialization, "asJson", call(serialization, "unmarshal", yaml, type));
        }

        @Override
        public List<Path> crdGenerator() {
            return crdGenerator;
        }

        /**
         * crd-generator 8.0.0 is on Jackson 3; classes that java-generator 7.7.0 wrote for schemas with
         * defaults call 7.7.0's {@code Serialization.unmarshal(String, com.fasterxml.jackson.core.type.TypeReference)}
         * in field initialisers, and do not link without Jackson 2's core. The fallback adds it (the
         * jar of the fabric8 runtime class path); the initialisers are never run.
         */
        @Override
        public List<Path> crdGeneratorFallback() {
            List<Path> path = new ArrayList<>(crdGenerator);
            runtime.stream().filter(p -> p.getFileName().toString().matches("jackson-core-2\\..*\\.jar")).forEach(path::add);
            return path;
        }

        @Override
        public String fallbackNote() {
            return crdGenerator.stream().map(p -> p.getFileName().toString())
                    .filter(f -> f.startsWith("crd-generator-api-v2-")).findFirst().orElse("?")
                    + " with " + runtime.stream().map(p -> p.getFileName().toString())
                    .filter(f -> f.matches("jackson-core-2\\..*\\.jar")).findFirst().orElse("?") + " added to its class path";
        }

        @Override
        public JsonNode crd(ClassLoader loader, List<String> classNames, Path out) throws Throwable {
            Object generator = loader.loadClass("io.fabric8.crdv2.generator.CRDGenerator").getConstructor().newInstance();
            call(generator, "inOutputDir", out.toFile());
            call(generator, "forCRDVersions", (Object) new String[] {"v1"});
            call(generator, "customResourceClasses", loadAll(loader, classNames));
            call(generator, "detailedGenerate");
            try (Stream<Path> files = Files.list(out)) {
                List<Path> written = files.toList();
                if (written.size() != 1) {
                    throw new IllegalStateException("expected one CRD file, found " + written);
                }
                return YAML.readTree(written.getFirst().toFile());
            }
        }
    }

    /** kubeloop's ModelGenerator and CrdGenerator, and KubeYaml / KubeJson. */
    static final class Kubeloop implements Generator {
        private final List<Path> classpath;
        private ClassLoader generatorLoader;

        Kubeloop(List<Path> classpath) {
            this.classpath = classpath;
        }

        @Override
        public String name() {
            return "kubeloop";
        }

        @Override
        public Map<String, String> generate(Fixture fixture, Path src) throws Throwable {
            if (generatorLoader == null) {
                generatorLoader = loader(classpath, null);
            }
            return withLoader(generatorLoader, () -> {
                Object objects = call(generatorLoader.loadClass("io.kubeloop.api.yaml.KubeYaml"), "readAll", fixture.crdFile());
                Class<?> modelGenerator = generatorLoader.loadClass("io.kubeloop.codegen.ModelGenerator");
                Object generator = modelGenerator.getConstructor(String.class).newInstance("gen.kubeloop." + fixture.id());
                List<?> sources = (List<?>) call(generator, "generate", objects);
                call(modelGenerator, "write", sources, src);
                // one source per served version, in the CRD's order
                List<String> served = new ArrayList<>();
                fixture.crd().path("spec").path("versions").forEach(v -> {
                    if (v.path("served").asBoolean(true)) {
                        served.add(v.path("name").asText());
                    }
                });
                Map<String, String> classes = new LinkedHashMap<>();
                for (int i = 0; i < sources.size(); i++) {
                    classes.put(served.get(i), (String) call(sources.get(i), "qualifiedName"));
                }
                return classes;
            });
        }

        @Override
        public List<Path> runtime() {
            return classpath;
        }

        @Override
        public String roundTrip(Class<?> type, String yaml) throws Throwable {
            ClassLoader loader = type.getClassLoader();
            Object value = call(loader.loadClass("io.kubeloop.api.yaml.KubeYaml"), "read", yaml, type);
            Object mapper = call(loader.loadClass("io.kubeloop.api.json.KubeJson"), "mapper");
            return (String) call(mapper, "writeValueAsString", value);
        }

        @Override
        public List<Path> crdGenerator() {
            return classpath;
        }

        @Override
        public JsonNode crd(ClassLoader loader, List<String> classNames, Path out) throws Throwable {
            Class<?> crdGenerator = loader.loadClass("io.kubeloop.codegen.CrdGenerator");
            List<?> crds = (List<?>) call(crdGenerator, "crds", loadAll(loader, classNames));
            String yaml = (String) call(crdGenerator, "yaml", crds.getFirst());
            Files.writeString(out.resolve("crd.yaml"), yaml);
            return YAML.readTree(yaml);
        }
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
        String report = report(work, fixtures, generators, results, Duration.ofNanos(System.nanoTime() - start));
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

    // ---- report ----

    static String report(Path work, List<Fixture> fixtures, List<Generator> generators, List<Result> results, Duration took) {
        StringBuilder out = new StringBuilder();
        int examples = fixtures.stream().mapToInt(f -> f.examples().size()).sum();
        out.append("# CRD code generators side by side: fabric8 and kubeloop\n\n");
        out.append("Inputs: ").append(fixtures.size()).append(" CRDs and ").append(examples)
                .append(" example objects (`kubeloop-codegen/src/test/resources/real-crds`). Run on ")
                .append(LocalDate.now()).append(" with javac ").append(System.getProperty("java.version"))
                .append(" (`-Xlint:all --release 21`), in ").append(took.toSeconds()).append(" s.\n\n");
        out.append("- **fabric8**: CRD → Java with java-generator-core ")
                .append(version(work, "fabric8-generator", "java-generator-core"))
                .append(" (the engine of java-generator-maven-plugin; default options, one package per fixture); "
                        + "the code compiled and run against kubernetes-client-api ")
                .append(version(work, "fabric8-runtime", "kubernetes-client-api"))
                .append(", read and written with `KubernetesSerialization`; Java → CRD with crd-generator-api-v2 ")
                .append(version(work, "fabric8-crd-generator", "crd-generator-api-v2"))
                .append(" on those classes.\n");
        out.append("- **kubeloop**: CRD → Java with `ModelGenerator`, Java → CRD with `CrdGenerator` (kubeloop-codegen ")
                .append(version(work, "kubeloop", "kubeloop-codegen"))
                .append("); read with `KubeYaml`, written with `KubeJson.mapper()`.\n\n");
        out.append("Lines: non-blank lines of all generated `.java` files. Round trip: example YAML → generated kind class "
                + "→ JSON, equal to the example as JSON values (numbers by value, key order ignored). Schema: the regenerated "
                + "CRD's storage-version `openAPIV3Schema` against the original's, both without `description`s and the root's "
                + "`apiVersion`/`kind`/`metadata` properties, `required` lists sorted; a differing path is a JSON pointer where "
                + "the two differ (a key on one side only counts once); in brackets, the count when `enum` lists are compared "
                + "in any order. Descriptions in source: how many of the storage "
                + "schema's descriptions appear in the generated source text, in full or at least their first sentence "
                + "(compared on letters and digits only, so that escaping and line breaks do not count).\n\n");

        out.append("| Fixture | Generator | Files | Lines | Compiles | javac warnings | Round trip | Descriptions in source: full | first sentence | Regenerated schema |\n");
        out.append("|---|---|---:|---:|---|---:|---|---|---|---|\n");
        for (Fixture fixture : fixtures) {
            for (Result r : results) {
                if (r.fixture == fixture) {
                    out.append("| ").append(r.generator.equals(generators.getFirst().name()) ? "`" + fixture.name() + "`" : "")
                            .append(" | ").append(r.generator).append(" | ").append(row(r)).append(" |\n");
                }
            }
        }
        for (Generator g : generators) {
            List<Result> mine = results.stream().filter(r -> r.generator.equals(g.name())).toList();
            out.append("| **total** | ").append(g.name())
                    .append(" | ").append(mine.stream().mapToInt(r -> r.files).sum())
                    .append(" | ").append(mine.stream().mapToLong(r -> r.lines).sum())
                    .append(" | ").append(mine.stream().filter(r -> Boolean.TRUE.equals(r.compiles)).count()).append("/").append(mine.size())
                    .append(" | ").append(mine.stream().mapToInt(r -> r.warnings).sum())
                    .append(" | ").append(mine.stream().mapToInt(r -> r.roundTripOk).sum()).append("/").append(examples)
                    .append(" | ").append(mine.stream().mapToInt(r -> r.descriptionsInFull).sum()).append("/")
                    .append(mine.stream().mapToInt(r -> r.descriptions).sum())
                    .append(" | ").append(mine.stream().mapToInt(r -> r.descriptionsStarted).sum()).append("/")
                    .append(mine.stream().mapToInt(r -> r.descriptions).sum())
                    .append(" | ").append(mine.stream().filter(r -> r.schemaDifferences != null && r.schemaDifferences.isEmpty()).count())
                    .append("/").append(mine.size()).append(" equal |\n");
        }

        for (Generator g : generators) {
            List<Result> fallback = results.stream().filter(r -> r.generator.equals(g.name()) && r.crdFallbackUsed).toList();
            if (!fallback.isEmpty()) {
                out.append("\n† ").append(g.name()).append("'s Java → CRD generator failed on ").append(fallback.size())
                        .append(" fixtures' classes with its own class path (the error is in the details below); measured instead with ")
                        .append(g.fallbackNote()).append(".\n");
            }
        }
        out.append("\n## Failures and differences\n\n");
        for (Result r : results) {
            List<String> lines = new ArrayList<>();
            if (r.generateError != null) {
                lines.add("generation failed: " + r.generateError);
            }
            if (r.firstError != null) {
                lines.add("does not compile, " + r.errors + " errors; first: " + r.firstError.replace("|", "\\|"));
            }
            r.roundTripFailures.forEach(f -> lines.add("round trip " + f));
            if (!r.crdErrors.isEmpty()) {
                lines.add("Java → CRD failed: " + r.crdErrors.getFirst());
            }
            if (r.crdFallbackUsed) {
                lines.add("Java → CRD measured instead with " + generators.stream().filter(g -> g.name().equals(r.generator))
                        .findFirst().orElseThrow().fallbackNote());
            } else if (r.crdErrors.size() > 1) {
                lines.add("Java → CRD failed again with the fallback class path: " + r.crdErrors.get(1));
            }
            if (r.schemaDifferences != null && !r.schemaDifferences.isEmpty()) {
                // one example per keyword at the end of the path, enum order ignored where that leaves any
                List<String> all = r.schemaDifferencesAnyEnumOrder.isEmpty() ? r.schemaDifferences : r.schemaDifferencesAnyEnumOrder;
                Map<String, String> samples = new LinkedHashMap<>();
                for (String d : all) {
                    String path = d.substring(1, d.indexOf('`', 1)).replaceAll("/\\d+$", "");
                    samples.putIfAbsent(path.substring(path.lastIndexOf('/') + 1), d);
                }
                lines.add("schema: " + r.schemaDifferences.size() + " differing paths (" + r.schemaDifferencesAnyEnumOrder.size()
                        + " in any enum order), e.g.:");
                samples.values().stream().limit(5).forEach(e -> lines.add("\t" + e));
            }
            if (!lines.isEmpty()) {
                out.append("- **").append(r.generator).append(" / ").append(r.fixture.name()).append("**\n");
                lines.forEach(l -> out.append(l.startsWith("\t") ? "    - " + l.substring(1) : "  - " + l).append('\n'));
            }
        }

        out.append("\n## Schema keywords after CRD → Java → CRD\n\n");
        out.append("Schema nodes using each keyword in the storage version's `openAPIV3Schema` (root apiVersion/kind/metadata "
                + "left out), summed over the fixtures where Java → CRD ran: regenerated / original.\n\n");
        out.append("| Keyword |");
        generators.forEach(g -> out.append(' ').append(g.name()).append(" |"));
        out.append("\n|---|");
        generators.forEach(g -> out.append("---:|"));
        out.append('\n');
        Map<String, Map<String, int[]>> census = new TreeMap<>(); // keyword → generator → {regenerated, original}
        for (Result r : results) {
            if (r.schemaDifferences == null) {
                continue;
            }
            Map<String, Integer> original = new TreeMap<>();
            Trees.countKeywords(Trees.normalizeSchema(storageSchema(r.fixture.crd()), false, false), original);
            for (String keyword : new TreeSet<>(union(original.keySet(), r.keywords.keySet()))) {
                int[] counts = census.computeIfAbsent(keyword, k -> new LinkedHashMap<>()).computeIfAbsent(r.generator, g -> new int[2]);
                counts[0] += r.keywords.getOrDefault(keyword, 0);
                counts[1] += original.getOrDefault(keyword, 0);
            }
        }
        census.forEach((keyword, byGenerator) -> {
            out.append("| `").append(keyword).append("` |");
            for (Generator g : generators) {
                int[] c = byGenerator.get(g.name());
                out.append(' ').append(c == null ? "–" : c[0] + " / " + c[1]).append(" |");
            }
            out.append('\n');
        });

        out.append("\n## javac warnings by kind\n\n| Generator | Warning | Count |\n|---|---|---:|\n");
        for (Generator g : generators) {
            Map<String, Integer> kinds = new TreeMap<>();
            results.stream().filter(r -> r.generator.equals(g.name())).forEach(r -> r.warningKinds.forEach((k, n) -> kinds.merge(k, n, Integer::sum)));
            kinds.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> out.append("| ").append(g.name()).append(" | `").append(e.getKey()).append("` | ").append(e.getValue()).append(" |\n"));
            if (kinds.isEmpty()) {
                out.append("| ").append(g.name()).append(" | none | 0 |\n");
            }
        }
        return out.toString();
    }

    private static String row(Result r) {
        if (r.generateError != null) {
            return "– | – | generation failed | – | – | – | – | –";
        }
        String compiles = r.compiles ? "yes" : "**no** (" + r.errors + " errors)";
        String roundTrip = r.compiles ? r.roundTripOk + "/" + r.fixture.examples().size() : "not measured";
        String schema = r.schemaDifferences == null && !r.crdErrors.isEmpty() ? "**failed**"
                : r.schemaDifferences == null ? "not measured"
                : r.schemaDifferences.isEmpty() ? "equal"
                : r.schemaDifferences.size() + " differing paths (" + r.schemaDifferencesAnyEnumOrder.size() + " in any enum order)";
        if (r.crdFallbackUsed) {
            schema += " †";
        }
        return r.files + " | " + r.lines + " | " + compiles + " | " + r.warnings + " | " + roundTrip + " | "
                + r.descriptionsInFull + "/" + r.descriptions + " | " + r.descriptionsStarted + "/" + r.descriptions + " | " + schema;
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

    private static <T> List<T> union(java.util.Collection<T> a, java.util.Collection<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
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
