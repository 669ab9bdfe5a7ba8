package codegencompare;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static codegencompare.CodegenCompare.YAML;
import static codegencompare.CodegenCompare.call;
import static codegencompare.CodegenCompare.withLoader;
import static codegencompare.CodegenCompare.loader;
import static codegencompare.CodegenCompare.loadAll;
import static codegencompare.CodegenCompare.version;

import codegencompare.CodegenCompare.Fixture;

/** fabric8's java-generator and crd-generator (v2), and KubernetesSerialization. */
final class Fabric8 implements Generator {
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
