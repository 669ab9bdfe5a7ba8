package io.kubeloop.controller.internal.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The live view's page: one HTML file with its styles and script inline (no request leaves the
 * page's server), drawing the {@link LoopSnapshots} it receives as server-sent events from {@code
 * /loops/events} and turning their totals into rates.
 */
public final class LoopsPage {

    /** Where the page is served. */
    public static final String PATH = "/loops";

    /** Where its events are served. */
    public static final String EVENTS_PATH = "/loops/events";

    private static final String HTML = load();

    private LoopsPage() {}

    /** The page's HTML. */
    public static String html() {
        return HTML;
    }

    private static String load() {
        try (InputStream in = LoopsPage.class.getResourceAsStream("loops.html")) {
            if (in == null) {
                throw new IllegalStateException("loops.html is missing from kubeloop-controller's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
