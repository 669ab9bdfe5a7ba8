package codegencompare;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static codegencompare.CodegenCompare.YAML;
import static codegencompare.CodegenCompare.call;
import static codegencompare.CodegenCompare.withLoader;
import static codegencompare.CodegenCompare.loader;
import static codegencompare.CodegenCompare.loadAll;
import static codegencompare.CodegenCompare.classpath;
import static codegencompare.CodegenCompare.version;

import codegencompare.CodegenCompare.Fixture;

/** kubeloop's ModelGenerator and CrdGenerator, and KubeYaml / KubeJson. */
final class Kubeloop implements Generator {
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
