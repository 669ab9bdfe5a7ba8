package io.kubeloop.api.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.schema.CoreSchema;
import org.snakeyaml.engine.v2.schema.JsonSchema;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Strings written by {@link KubeYaml} read back as the same strings in YAML 1.1 readers (SnakeYAML 1.x here,
 * PyYAML when python3 has it) and in YAML 1.2 readers (core and JSON schema, and KubeYaml itself), keys and
 * values alike.
 */
class PortableQuotingTest {

    /** Plain in YAML 1.2 but not strings in YAML 1.1, or not strings in either. */
    static final List<String> TRICKY = List.of(
            "1970-01-01T00:00:00Z",
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "y",
            "Y",
            "n",
            "N",
            "yes",
            "No",
            "ON",
            "off",
            "yEs",
            "~",
            "null",
            "NULL",
            "",
            "true",
            "False",
            "1:20",
            "-1:20",
            "12:30:45",
            "190:20:30.15",
            "0755",
            "0o7",
            "0x1F",
            "0b101",
            "1_000",
            "1e3",
            "1E+3",
            "+1",
            "1.",
            ".5",
            "+.5",
            "1.2.3",
            ".",
            ".inf",
            "-.Inf",
            "+.INF",
            ".NaN",
            "<<",
            "=");

    /** Strings every reader reads as strings when plain: they stay plain, as kubectl prints them. */
    static final List<String> PLAIN =
            List.of("10Gi", "nginx:1.25.3", "v1", "default", "8080:80x", "1-2", "0.5x", "a=b", "Always", "yesterday");

    @Test
    void stringsThatYaml11ReadsAsOtherTypesAreQuoted() {
        for (String s : TRICKY) {
            String yaml = KubeYaml.write(Map.of("k", s));
            assertThat(yaml).as(s).isNotEqualTo("k: " + s + "\n");
            assertReadsBackEverywhere(s);
        }
    }

    @Test
    void stringsEveryReaderReadsAsStringsStayPlain() {
        for (String s : PLAIN) {
            assertThat(KubeYaml.write(Map.of("k", s))).isEqualTo("k: " + s + "\n");
            assertReadsBackEverywhere(s);
        }
    }

    /**
     * NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are line breaks to YAML 1.1 and ordinary characters to YAML
     * 1.2: a key or value holding one is written escaped, so that both read it back.
     */
    @Test
    void yaml11LineBreaksAreEscapedInKeysAndValues() {
        for (String s : List.of("a\u2028b", "a\u0085b", "x\u2029", "a\nb\u2028c", "caf\u00e9\u2028")) {
            String yaml = KubeYaml.write(Map.of(s, s));
            assertThat(yaml).doesNotContain("\u2028", "\u2029", "\u0085");
            assertReadsBackEverywhere(s);
        }
        assertThat(KubeYaml.write(Map.of("k", "caf\u00e9"))).isEqualTo("k: caf\u00e9\n");
    }

    @Test
    void aCrdDefaultTimestampIsQuoted() {
        String yaml = KubeYaml.write(Map.of("default", "1970-01-01T00:00:00Z"));

        assertThat(yaml).isEqualTo("default: \"1970-01-01T00:00:00Z\"\n");
    }

    @Property(tries = 3000)
    void everyStringReadsBackAsTheSameStringInYaml11AndYaml12(@ForAll("scalars") String s) {
        assertReadsBackEverywhere(s);
    }

    @Provide
    Arbitrary<String> scalars() {
        Arbitrary<String> yamlish = Arbitraries.strings()
                .withChars("0123456789._:+-eExXoObBfFiInNaAyYsSlLuUtTrRZ ~<=#&*!|>'\"%@`,[]{}?\t")
                .ofMaxLength(12);
        Arbitrary<String> words = Arbitraries.of(TRICKY);
        Arbitrary<String> any = Arbitraries.strings().ofMaxLength(12);
        return Arbitraries.frequencyOf(Tuple.of(6, yamlish), Tuple.of(2, words), Tuple.of(2, any));
    }

    @Test
    void pyYamlReadsEveryTrickyStringAsAString(@TempDir Path dir) throws Exception {
        assumeTrue(
                pyYamlAvailable(),
                "python3 with PyYAML (import yaml) not found: the YAML 1.1 check ran with SnakeYAML 1.x only");
        Map<String, String> same = new LinkedHashMap<>();
        for (String s : TRICKY) {
            same.put(s, s);
        }
        for (String s : PLAIN) {
            same.put(s, s);
        }
        Path file = Files.writeString(dir.resolve("tricky.yaml"), KubeYaml.write(same), StandardCharsets.UTF_8);

        // prints every key or value that PyYAML reads as something else than the same string
        String wrong = python("""
                import sys, yaml
                with open(sys.argv[1], encoding="utf-8") as f:
                    d = yaml.safe_load(f)
                for k, v in d.items():
                    if not isinstance(k, str) or not isinstance(v, str) or k != v:
                        print(repr(k), "->", repr(v))
                """, file.toString());

        assertThat(wrong).isEmpty();
    }

    private static void assertReadsBackEverywhere(String s) {
        Map<String, String> value = Map.of("k", s);
        Map<String, String> key = Map.of(s, "v");
        for (Map<String, String> doc : List.of(value, key)) {
            String yaml = KubeYaml.write(doc);
            assertThat(yaml11(yaml)).as("YAML 1.1 reading %s", yaml).isEqualTo(doc);
            assertThat(yaml12(yaml, false)).as("YAML 1.2 core reading %s", yaml).isEqualTo(doc);
            assertThat(yaml12(yaml, true))
                    .as("YAML 1.2 JSON schema reading %s", yaml)
                    .isEqualTo(doc);
            assertThat(KubeYaml.readAll(yaml)
                            .getFirst()
                            .node()
                            .propertyStream()
                            .collect(Collectors.toMap(
                                    Map.Entry::getKey,
                                    e -> e.getValue().isString() ? e.getValue().asString() : "<" + e.getValue() + ">")))
                    .as("KubeYaml reading %s", yaml)
                    .isEqualTo(doc);
        }
    }

    private static Object yaml11(String yaml) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
    }

    private static Object yaml12(String yaml, boolean json) {
        LoadSettings settings = LoadSettings.builder()
                .setSchema(json ? new JsonSchema() : new CoreSchema())
                .build();
        return new Load(settings).loadFromString(yaml);
    }

    private static boolean pyYamlAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import yaml")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String python(String script, String arg) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "-c", script, arg)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.strip();
    }
}
