package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubeloop demo}: the whole loop in-process, its owner-only kubeconfig that is gone when the demo ends
 * (unless the user named it), and its one-line errors.
 */
@Timeout(120)
class DemoCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    private static Run kubeloop(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    /** The kubeconfig the demo names on its first line. */
    private static Path kubeconfigOf(String out) {
        Matcher m = Pattern.compile("kubeconfig: (\\S+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Path.of(m.group(1));
    }

    @Test
    void demoOnceRunsTheLoopToItsEndStateAndExitsZero() throws IOException {
        Path kubeconfig = dir.resolve("new/kc");
        Run r = kubeloop("demo", "--once", "--replicas", "3", "--kubeconfig-out", kubeconfig.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(Files.exists(kubeconfig)).as("a file the user named stays").isTrue();
        assertThat(mode(kubeconfig)).isEqualTo("rw-------");
        assertThat(mode(kubeconfig.getParent())).isEqualTo("rwx------");
        assertThat(r.out().lines().toList())
                .first()
                .asString()
                .matches("API server ready at https://127\\.0\\.0\\.1:\\d+; kubeconfig: .*kc");
        assertThat(r.out())
                .contains(
                        "installed CRD foos.samplecontroller.k8s.io\n",
                        "created foo default/example-foo (deploymentName example-foo-nginx, replicas 3)\n",
                        "deployment default/example-foo-nginx created by foo example-foo: 0/3 replicas available\n",
                        "demo succeeded: foo default/example-foo owns deployment example-foo-nginx with 3/3 replicas available,"
                                + " and its status says so\n");
        assertThat(r.out()).containsPattern("deployment default/example-foo-nginx: 3/3 replicas available");
        assertThat(r.out().lines().filter(l -> l.startsWith("demo succeeded")).count())
                .isEqualTo(1);
        assertThat(r.err()).doesNotContain("Exception");
    }

    @Test
    void demoOnceRemovesTheTemporaryKubeconfigAndItsDirectory() {
        Run r = kubeloop("demo", "--once", "--replicas", "1");

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        Path kubeconfig = kubeconfigOf(r.out());
        assertThat(kubeconfig.getParent().getFileName().toString()).startsWith("kubeloop-demo");
        assertThat(kubeconfig).doesNotExist();
        assertThat(kubeconfig.getParent()).doesNotExist();
    }

    @Test
    void theServingDemoServesItsLiveViewAndKeepsAnOwnerOnlyKubeconfigUntilStoppedThenRemovesIt() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger exit = new AtomicInteger(-1);
        Thread demo = Thread.ofPlatform()
                .start(() -> exit.set(Main.run(new PrintWriter(out), new PrintWriter(err), "demo", "--replicas", "1")));
        try {
            await().atMost(Duration.ofSeconds(90)).until(() -> out.toString().contains("serving until Ctrl-C"));
            Path kubeconfig = kubeconfigOf(out.toString());
            assertThat(mode(kubeconfig)).isEqualTo("rw-------");
            assertThat(mode(kubeconfig.getParent())).isEqualTo("rwx------");
            Matcher live = Pattern.compile("live view of its loops: (http://\\S+/loops)")
                    .matcher(out.toString());
            assertThat(live.find()).as(out.toString()).isTrue();
            HttpResponse<String> page = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(URI.create(live.group(1))).build(), BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>kubeloop — loops</title>");
            Matcher serverView = Pattern.compile("live view of the API server: (http://\\S+/)")
                    .matcher(out.toString());
            assertThat(serverView.find()).as(out.toString()).isTrue();
            assertThat(HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(URI.create(serverView.group(1)))
                                            .build(),
                                    BodyHandlers.ofString())
                            .body())
                    .contains("<title>kubeloop — API server</title>");

            demo.interrupt(); // what SIGINT does to its wait
            demo.join(Duration.ofSeconds(30));
            assertThat(exit.get()).as(err.toString()).isZero();
            assertThat(out.toString()).endsWith("demo stopped\n");
            assertThat(kubeconfig.getParent()).doesNotExist();
        } finally {
            demo.interrupt();
        }
    }

    // stopped while the loop is being set up: --once fails (or, had it been quicker, passes) and cleans up alike
    @Test
    void aDemoStoppedBeforeItsChecksRemovesTheTemporaryKubeconfigToo() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger exit = new AtomicInteger(-1);
        Thread demo = Thread.ofPlatform()
                .start(() -> exit.set(
                        Main.run(new PrintWriter(out), new PrintWriter(err), "demo", "--once", "--replicas", "1")));
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> out.toString().contains("created foo"));
        demo.interrupt();
        demo.join(Duration.ofSeconds(30));
        assertThat(demo.isAlive()).isFalse();
        if (exit.get() != 0) {
            assertThat(exit.get()).isEqualTo(1);
            assertThat(err.toString()).isEqualTo("demo failed: stopped before the end state was checked\n");
        }
        assertThat(kubeconfigOf(out.toString()).getParent()).doesNotExist();
    }

    @Test
    void aBadFlagIsOneLineAndExitOne() {
        Run r = kubeloop("demo", "--once", "--replicas", "11");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip())
                .doesNotContain("\n")
                .contains("--replicas must be 1..10 (the Foo CRD's range), got 11");
        assertThat(r.out()).isEmpty();
    }
}
