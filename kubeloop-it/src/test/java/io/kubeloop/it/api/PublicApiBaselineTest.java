package io.kubeloop.it.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every library module declares its public API in a {@code module-info}, and that API matches the dump committed
 * as {@code <module>/api/<module>.api}: a change to a public signature fails the build until the dump is
 * regenerated and committed with it, so every API change is deliberate and shows in review.
 *
 * <p>Regenerate after a deliberate change with
 * {@code mvn -B verify -pl kubeloop-it -am -Dtest=PublicApiBaselineTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dkubeloop.api.update=true} and commit the changed {@code .api} files.
 */
class PublicApiBaselineTest {

    /**
     * The artifacts users depend on; each must be a named module. {@code io.kubeloop.models} is not dumped: its
     * API is the generated image of Kubernetes' OpenAPI documents, which its own tests check definition by
     * definition.
     */
    private static final List<String> LIBRARY_MODULES = List.of(
            "io.kubeloop.api",
            "io.kubeloop.apiserver",
            "io.kubeloop.cache",
            "io.kubeloop.client",
            "io.kubeloop.codegen",
            "io.kubeloop.controller",
            "io.kubeloop.testing",
            "io.kubeloop.time",
            "io.kubeloop.workqueue");

    private static final boolean UPDATE = Boolean.getBoolean("kubeloop.api.update");

    private final Map<String, ApiSignatures.ModuleRoot> modules = ApiSignatures.kubeloopModules().stream()
            .collect(Collectors.toMap(ApiSignatures.ModuleRoot::name, Function.identity()));

    @Test
    void everyLibraryModuleIsANamedModule() {
        assertThat(modules.keySet()).containsAll(LIBRARY_MODULES);
    }

    @Test
    void noModuleExportsAnInternalPackageToEveryone() {
        for (var module : modules.values()) {
            assertThat(module.publicPackages())
                    .as("unqualified exports of %s", module.name())
                    .noneMatch(p -> p.contains(".internal"));
        }
    }

    @Test
    void publicApiMatchesTheCommittedDump() throws IOException {
        List<String> changed = new ArrayList<>();
        for (String name : LIBRARY_MODULES) {
            var module = modules.get(name);
            assertThat(module).as("module %s on the class path", name).isNotNull();
            String artifact = "kubeloop-" + name.substring("io.kubeloop.".length());
            Path file = repositoryRoot().resolve(artifact).resolve("api").resolve(artifact + ".api");
            List<String> actual = ApiSignatures.dump(module);
            List<String> expected = Files.exists(file) ? Files.readAllLines(file) : List.of();
            if (actual.equals(expected)) {
                continue;
            }
            if (UPDATE) {
                Files.createDirectories(file.getParent());
                Files.write(file, actual);
                continue;
            }
            Set<String> added = new LinkedHashSet<>(actual);
            expected.forEach(added::remove);
            Set<String> removed = new LinkedHashSet<>(expected);
            actual.forEach(removed::remove);
            StringBuilder b =
                    new StringBuilder(artifact).append(" (").append(file).append("):\n");
            added.stream()
                    .filter(l -> !l.isBlank())
                    .forEach(l -> b.append("  + ").append(l.strip()).append('\n'));
            removed.stream()
                    .filter(l -> !l.isBlank())
                    .forEach(l -> b.append("  - ").append(l.strip()).append('\n'));
            changed.add(b.toString());
        }
        assertThat(changed)
                .as("the public API differs from the committed dump; if the change is deliberate, regenerate with "
                        + "-Dkubeloop.api.update=true (see this test's Javadoc) and commit the .api files")
                .isEmpty();
    }

    /**
     * The module table of README.md names, for every library module, exactly the packages its descriptor exports
     * to everyone (a leading dot abbreviates the row's first package), and every type it names in backticks is a
     * public type of one of them.
     */
    @Test
    void readmeModuleTableNamesTheExportedPackagesAndTypes() throws IOException {
        List<String> rows = Files.readAllLines(repositoryRoot().resolve("README.md")).stream()
                .filter(l -> l.startsWith("| kubeloop-"))
                .toList();
        int checked = 0;
        for (String row : rows) {
            String[] cells = row.split("\\|");
            String artifact = cells[1].strip();
            var module = modules.get("io.kubeloop." + artifact.substring("kubeloop-".length()));
            if (module == null || !LIBRARY_MODULES.contains(module.name())) {
                continue;
            }
            List<String> named = new ArrayList<>();
            for (String p : cells[2].replace("`", "").split(",")) {
                String pkg = p.strip();
                named.add(pkg.startsWith(".") ? named.get(0) + pkg : pkg);
            }
            assertThat(named)
                    .as("packages of %s in README.md", artifact)
                    .containsExactlyInAnyOrderElementsOf(module.publicPackages());
            var types = Pattern.compile("`@?([A-Z]\\w*)").matcher(cells[3]);
            while (types.find()) {
                String simple = types.group(1);
                assertThat(module.publicPackages().stream().anyMatch(pkg -> isPublicType(pkg + "." + simple)))
                        .as("README.md names %s for %s: a public type of its exported packages", simple, artifact)
                        .isTrue();
            }
            checked++;
        }
        assertThat(checked).as("library modules in the README table").isEqualTo(LIBRARY_MODULES.size());
    }

    private static boolean isPublicType(String name) {
        try {
            return Modifier.isPublic(Class.forName(name, false, PublicApiBaselineTest.class.getClassLoader())
                    .getModifiers());
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static Path repositoryRoot() {
        return Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
    }
}
