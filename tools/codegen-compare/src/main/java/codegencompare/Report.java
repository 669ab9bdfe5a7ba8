package codegencompare;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static codegencompare.CodegenCompare.YAML;
import static codegencompare.CodegenCompare.JSON;
import static codegencompare.CodegenCompare.version;
import static codegencompare.CodegenCompare.storageSchema;

import codegencompare.CodegenCompare.Fixture;
import codegencompare.CodegenCompare.Result;

/** The Markdown report of a comparison run. */
final class Report {

    private Report() {
    }

    static String render(Path work, List<Fixture> fixtures, List<Generator> generators, List<Result> results, Duration took) {
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

    private static <T> List<T> union(java.util.Collection<T> a, java.util.Collection<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
