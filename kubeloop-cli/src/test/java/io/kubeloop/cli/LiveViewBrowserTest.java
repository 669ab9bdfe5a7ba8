package io.kubeloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.ManagerOptions;
import io.kubeloop.samples.samplecontroller.Foo;
import io.kubeloop.samples.samplecontroller.FooCrd;
import io.kubeloop.samples.samplecontroller.SampleController;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The Manager's live view in a real headless browser (Debian's chromium through its chromedriver and
 * Selenium): the sample-controller runs under a Manager against the embedded server; the page at
 * {@code /loops} shows the Foo informer synced with no objects, then — without reloading, over
 * server-sent events — three Foos in the cache, their events counted, the controller's successful
 * reconciles and its slowest keys (none being retried). Then the embedded server's own live view
 * shows the Foos among its resources and their creation and a deletion in its feed of changes.
 * Screenshots go to {@code target/loops.png} and {@code target/server.png} (the docs show such ones).
 * Skipped, saying so, where chromium or chromedriver is not installed ({@code .ci/run} installs them).
 */
@Timeout(180)
class LiveViewBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static String text(WebDriver browser, String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }

    /** Waits until an element of {@code css} reads {@code expected} (the page redraws each second). */
    private static void awaitText(WebDriver browser, String css, String expected) {
        await(css + " to read " + expected)
                .atMost(WAIT)
                .ignoreExceptions()
                .until(() -> browser.findElements(By.cssSelector(css)).stream()
                        .anyMatch(e -> e.getText().equals(expected)));
    }

    private static void screenshot(WebDriver browser, String file) throws IOException {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Path shot = Files.write(Path.of("target", file), png);
        assertThat(Files.size(shot)).isPositive();
    }

    @Test
    void theLoopsPageAndTheServersPageShowTheLoopsAndTheChangesLive() throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "chromium and chromedriver are not installed (Debian packages chromium and chromium-driver;"
                        + " .ci/run installs them): the live view's browser test is skipped");
        try (EmbeddedApiServer server =
                        EmbeddedApiServer.start(ServerOptions.defaults().withCluster(SimulatedCluster.off()));
                KubeClient client = server.client()) {
            FooCrd.install(client, Duration.ofSeconds(30));
            try (Manager manager = Manager.create(
                    client, ManagerOptions.defaults().withMetricsAddress(new InetSocketAddress("127.0.0.1", 0)))) {
                SampleController.addTo(manager);
                manager.start();
                String page = "http://127.0.0.1:"
                        + manager.endpoints().metricsAddress().orElseThrow().getPort() + "/loops";

                ChromeOptions options = new ChromeOptions()
                        .setBinary(CHROMIUM.toFile())
                        .addArguments(
                                "--headless=new",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-dev-shm-usage",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--window-size=1280,860",
                                "--user-data-dir=" + dir.resolve("profile"));
                ChromeDriverService service = new ChromeDriverService.Builder()
                        .usingDriverExecutable(CHROMEDRIVER.toFile())
                        .usingAnyFreePort()
                        .build();
                WebDriver browser = new ChromeDriver(service, options);
                try {
                    browser.get(page);
                    assertThat(browser.getTitle()).isEqualTo("kubeloop — loops");
                    String foos = "tr[data-informer^='foos'] ";
                    awaitText(browser, foos + "[data-field=synced]", "yes");
                    assertThat(text(browser, foos + "[data-field=objects]")).isEqualTo("0");
                    assertThat(text(browser, "#leader")).isEqualTo("leading");

                    for (int i = 1; i <= 3; i++) {
                        client.resource(Foo.class)
                                .inNamespace("default")
                                .create(Foo.of("default", "web-" + i, "web-" + i + "-nginx", 1));
                    }

                    awaitText(browser, foos + "[data-field=objects]", "3");
                    String controller = "tr[data-controller='" + SampleController.NAME + "'] ";
                    await("three successful reconciles")
                            .atMost(WAIT)
                            .ignoreExceptions()
                            .until(() -> Long.parseLong(text(browser, controller + "[data-field=success]")) >= 3);
                    assertThat(Long.parseLong(text(browser, foos + "[data-field=events]")))
                            .as("the three ADDED events, bookmarks maybe")
                            .isGreaterThanOrEqualTo(3);
                    awaitText(
                            browser, "tr[data-keys='" + SampleController.NAME + "'] [data-field=mostRetried]", "none");
                    assertThat(text(browser, "tr[data-keys='" + SampleController.NAME + "'] [data-field=slowest]"))
                            .as("the slowest keys with their times")
                            .contains("default/web-")
                            .containsPattern("\\d ms|\\d s|\\d µs");
                    assertThat(browser.findElements(By.cssSelector("tr[data-queue='" + SampleController.NAME + "']")))
                            .as("the controller's queue")
                            .hasSize(1);

                    screenshot(browser, "loops.png");

                    // the API server's own view: its resources and the feed of changes
                    InetSocketAddress view = server.serveLiveView(new InetSocketAddress("127.0.0.1", 0));
                    browser.get("http://127.0.0.1:" + view.getPort() + "/");
                    assertThat(browser.getTitle()).isEqualTo("kubeloop — API server");
                    awaitText(browser, "tr[data-resource='foos.samplecontroller.k8s.io'] [data-field=objects]", "3");
                    awaitText(
                            browser,
                            "tr[data-change='foos.samplecontroller.k8s.io default/web-3'] [data-field=type]",
                            "ADDED");
                    client.resource(Foo.class).inNamespace("default").delete("web-3");
                    awaitText(
                            browser,
                            "tr[data-change='foos.samplecontroller.k8s.io default/web-3'] [data-field=type]",
                            "DELETED");
                    awaitText(browser, "tr[data-resource='foos.samplecontroller.k8s.io'] [data-field=objects]", "2");
                    screenshot(browser, "server.png");
                } finally {
                    browser.quit();
                }
            }
        }
    }
}
