package io.kubeloop.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kubeloop.time.testing.FakeTicker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Kubeconfig files mutated from a valid one (lines dropped, duplicated or cut; values replaced by lists, maps,
 * numbers, nulls, aliases; tabs; invalid UTF-8; deep nesting; an alias bomb; random bytes): loading and resolving
 * either succeeds or throws {@link KubeConfigException} with a message, never another exception (no
 * NullPointerException, ClassCastException or StackOverflowError).
 */
class KubeConfigFuzzTest {

    private static final String VALID = """
            apiVersion: v1
            kind: Config
            current-context: ctx
            clusters:
            - name: c
              cluster:
                server: https://127.0.0.1:6443
                insecure-skip-tls-verify: true
                certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
                tls-server-name: api
                proxy-url: http://proxy:3128
            users:
            - name: u
              user:
                token: abc
                username: admin
                password: secret
                client-certificate-data: Zm9v
                client-key-data: YmFy
                tokenFile: token.txt
            contexts:
            - name: ctx
              context: {cluster: c, user: u, namespace: ns}
            preferences: {}
            """;

    static Path dir;

    @BeforeContainer
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("kubeconfig-fuzz");
        Files.writeString(dir.resolve("token.txt"), "t0ken\n");
    }

    @AfterContainer
    static void deleteDirectory() throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Provide
    Arbitrary<byte[]> files() {
        List<String> lines = VALID.lines().toList();
        Arbitrary<String> replacement = Arbitraries.of(
                "[]",
                "{}",
                "[1, 2]",
                "{a: b}",
                "7",
                "-1.5",
                "null",
                "~",
                "true",
                "\"\"",
                "*missing",
                "&a x",
                "!!binary AA==",
                "!!int nope",
                "'unterminated",
                "\"\\xzz\"",
                "- x",
                "? complex",
                "|",
                ">-",
                "{",
                "[",
                "\t",
                "@",
                "`",
                "%YAML 9");
        Arbitrary<String> lineEdit = Combinators.combine(
                        Arbitraries.integers().between(0, lines.size() - 1),
                        replacement,
                        Arbitraries.of(LineEdit.class))
                .as((i, r, e) -> {
                    String[] out = lines.toArray(String[]::new);
                    String line = out[i];
                    int colon = line.indexOf(": ");
                    out[i] = switch (e) {
                        case VALUE -> colon < 0 ? line + " " + r : line.substring(0, colon + 2) + r;
                        case DROP -> "";
                        case DUPLICATE -> line + "\n" + line;
                        case INDENT -> "  " + line;
                        case TAB -> line.replace("  ", "\t");
                        case CUT -> line.substring(0, line.length() / 2);
                    };
                    return String.join("\n", out);
                });
        Arbitrary<String> manyEdits = lineEdit.list().ofMinSize(1).ofMaxSize(3).map(l -> l.get(l.size() - 1));
        Arbitrary<byte[]> edited = Arbitraries.frequencyOf(Tuple.of(3, lineEdit), Tuple.of(1, manyEdits))
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> truncated = Arbitraries.doubles()
                .between(0, 1)
                .map(f -> Arrays.copyOf(VALID.getBytes(StandardCharsets.UTF_8), (int) (VALID.length() * f)));
        Arbitrary<byte[]> special = Arbitraries.of(
                        "[".repeat(100_000),
                        "a:\n" + "- ".repeat(5_000) + "x",
                        "clusters: " + "{a: ".repeat(20_000) + "1" + "}".repeat(20_000),
                        "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                                + "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                                + "clusters: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n",
                        "--- \n---\n",
                        "current-context: ctx\n---\ncurrent-context: other\n",
                        "\uFEFFcurrent-context: ctx\n",
                        "clusters: x\nusers: 1\ncontexts: {}\n")
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> invalidUtf8 = Arbitraries.integers()
                .between(0, VALID.length() - 1)
                .map(i -> {
                    byte[] b = VALID.getBytes(StandardCharsets.UTF_8);
                    b[i] = (byte) 0xff;
                    return b;
                });
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(60);
        return Arbitraries.frequencyOf(
                Tuple.of(8, edited),
                Tuple.of(2, truncated),
                Tuple.of(1, special),
                Tuple.of(1, invalidUtf8),
                Tuple.of(1, random));
    }

    enum LineEdit {
        VALUE,
        DROP,
        DUPLICATE,
        INDENT,
        TAB,
        CUT
    }

    @Property(tries = 250, seed = "18", shrinking = ShrinkingMode.OFF)
    void aKubeconfigLoadsOrIsAKubeConfigExceptionWithAMessage(@ForAll("files") byte[] content) {
        Path file = dir.resolve("config");
        try {
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ConfigEnvironment env = new ConfigEnvironment(
                Map.of(),
                dir,
                dir.resolve("no-service-account"),
                new FakeTicker(Instant.parse("2030-01-01T00:00:00Z")));
        KubeConfigLoader loader =
                KubeConfigLoader.builder().environment(env).kubeconfig(file).build();

        for (Throwable thrown : Arrays.asList(catchThrowable(loader::load), catchThrowable(loader::clientConfig))) {
            if (thrown != null) {
                assertThat(thrown)
                        .as(
                                "kubeconfig:%n%s",
                                new String(content, 0, Math.min(content.length, 600), StandardCharsets.UTF_8))
                        .isInstanceOf(KubeConfigException.class);
                assertThat(thrown.getMessage()).isNotBlank();
            }
        }
    }
}
