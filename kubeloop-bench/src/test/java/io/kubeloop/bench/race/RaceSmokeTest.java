package io.kubeloop.bench.race;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves the race's harness works end to end at a toy size (20 Foos): each framework's operator starts
 * in its own JVM, converges in both phases, leaves the right end state on the server and has its
 * requests counted. Not a measurement, so the three frameworks' rounds run at the same time: each has its
 * own API server, operator JVM and directory.
 */
class RaceSmokeTest {

    private static final int FOOS = 20;

    @ParameterizedTest
    @EnumSource(Framework.class)
    @Execution(ExecutionMode.CONCURRENT)
    void everyOperatorConvergesAndIsCounted(Framework framework, @TempDir Path dir) {
        if (framework.peer()) {
            assumeTrue(
                    Files.isRegularFile(Path.of(System.getProperty("kubeloop.peers.classpath", "-"))),
                    "kubeloop-peers' class path (set by the Maven build)");
        }
        RaceRound round = new RaceRound(
                RaceRound.operatorFlags(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")),
                Set.of(),
                Set.of(),
                4,
                Duration.ofSeconds(60),
                dir);

        RaceResult r = round.run(RaceContender.of(framework), FOOS, RaceRound.Launch.plain());

        assertThat(r.create().converged()).as("create phase").isTrue();
        assertThat(r.scale().converged()).as("scale phase").isTrue();
        assertThat(r.endState().examples()).isEmpty();
        assertThat(r.endState().checked()).isEqualTo(FOOS);
        assertThat(r.startupRequests()).isNotEmpty();
        // every Foo got its Deployment created and scaled, and its status written twice, by some verb
        assertThat(r.writesPerFoo()).isGreaterThanOrEqualTo(4.0);
        assertThat(r.heapBytes()).isPositive();
    }

    /** A training round writes the JDK's AOT configuration, the cache is created from it, and the operator starts with it. */
    @Test
    void anOperatorTrainedIntoAnAotCacheStartsWithItAndConverges(@TempDir Path dir) {
        assumeTrue(AotCaches.supported(), "the JDK's AOT cache needs JDK 24 or later");
        RaceRound round = new RaceRound(
                RaceRound.operatorFlags(List.of("-Xmx256m", "-XX:+UseSerialGC")),
                Set.of(),
                Set.of(),
                4,
                Duration.ofSeconds(60),
                dir);
        RaceContender kubeloop = RaceContender.of(Framework.KUBELOOP);
        AotCaches caches = new AotCaches(dir);
        assertThat(caches.launchFor(kubeloop).flags()).isEmpty();

        caches.train(round, kubeloop, FOOS);

        RaceRound.Launch launch = caches.launchFor(kubeloop);
        assertThat(launch.flags()).contains("-XX:AOTMode=on").anyMatch(f -> f.startsWith("-XX:AOTCache="));
        assertThat(launch.classPath()
                        .apply(System.getProperty("java.class.path"))
                        .split(java.io.File.pathSeparator))
                .as("only jars: the JDK refuses directories on an AOT cache's class path")
                .allMatch(entry -> entry.endsWith(".jar"));
        assertThat(dir.resolve("aot-kubeloop.aot")).isNotEmptyFile();
        RaceResult r = round.run(kubeloop, FOOS, launch);
        assertThat(r.scale().converged()).as("scale phase").isTrue();
        assertThat(r.endState().examples()).isEmpty();
    }
}
