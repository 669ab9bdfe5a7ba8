package io.kubeloop.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.config.ConfigEnvironment;
import io.kubeloop.time.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the entry point does before it reaches a cluster: usage errors, help, a missing configuration. */
class OperatorMainTest {

    @TempDir
    Path home;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicBoolean setUp = new AtomicBoolean();

    private int run(String... args) {
        OperatorMain main = OperatorMain.create("widget-operator", manager -> setUp.set(true))
                .withEnvironment(
                        new ConfigEnvironment(Map.of(), home, home.resolve("no-serviceaccount"), Ticker.system()))
                .withOutput(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return main.run(List.of(args), Cancellation.create());
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aFlagThatIsNotDefinedIsOneLineOnStderrAndStatusTwo() {
        assertThat(run("--leader-elect", "--zap-devel")).isEqualTo(2);

        assertThat(err()).isEqualTo("widget-operator: flag provided but not defined: --zap-devel (see --help)\n");
        assertThat(out()).isEmpty();
        assertThat(setUp).isFalse();
    }

    @Test
    void helpPrintsTheUsageOnStdoutAndStatusZero() {
        assertThat(run("--help")).isZero();

        assertThat(out()).isEqualTo(OperatorFlags.usage("widget-operator"));
        assertThat(err()).isEmpty();
    }

    @Test
    void withNothingToReachAClusterWithItsStatusIsOneWithOneLineAndNoStackTrace() {
        assertThat(run()).isEqualTo(1);

        assertThat(err())
                .startsWith("widget-operator: ")
                .doesNotContain("\tat ")
                .hasLineCount(1);
        assertThat(setUp).isFalse();
    }
}
