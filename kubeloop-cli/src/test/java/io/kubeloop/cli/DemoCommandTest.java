package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubeloop demo --once}: the whole loop in-process, and its one-line errors. */
@Timeout(120)
class DemoCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    private static Run kubeloop(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void demoOnceRunsTheLoopToItsEndStateAndExitsZero() {
        Path kubeconfig = dir.resolve("kc");
        Run r = kubeloop("demo", "--once", "--replicas", "3", "--kubeconfig-out", kubeconfig.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(Files.exists(kubeconfig)).isTrue();
        assertThat(r.out().lines().toList())
                .first().asString().matches("API server ready at https://127\\.0\\.0\\.1:\\d+; kubeconfig: .*kc");
        assertThat(r.out()).contains(
                "installed CRD foos.samplecontroller.k8s.io\n",
                "created foo default/example-foo (deploymentName example-foo-nginx, replicas 3)\n",
                "deployment default/example-foo-nginx created by foo example-foo: 0/3 replicas available\n",
                "demo succeeded: foo default/example-foo owns deployment example-foo-nginx with 3/3 replicas available,"
                        + " and its status says so\n");
        assertThat(r.out()).containsPattern("deployment default/example-foo-nginx: 3/3 replicas available");
        assertThat(r.out().lines().filter(l -> l.startsWith("demo succeeded")).count()).isEqualTo(1);
        assertThat(r.err()).doesNotContain("Exception");
    }

    @Test
    void aBadFlagIsOneLineAndExitOne() {
        Run r = kubeloop("demo", "--once", "--replicas", "11");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip()).doesNotContain("\n").contains("--replicas must be 1..10 (the Foo CRD's range), got 11");
        assertThat(r.out()).isEmpty();
    }
}
