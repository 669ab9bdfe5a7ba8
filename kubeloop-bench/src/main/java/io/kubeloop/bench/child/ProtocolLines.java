package io.kubeloop.bench.child;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A child JVM's stdout, read on a daemon thread: lines of its protocol (those {@code protocol}
 * matches) are queued for {@link #expect}, other output is echoed with the child's label as prefix;
 * when the output ends, {@code EXIT} is queued.
 *
 * <p><b>Thread safety.</b> {@link #expect} is for one thread (the one that started the child).
 */
public final class ProtocolLines {

    private final String label;
    private final Pattern protocol;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ProtocolLines(String label, Pattern protocol) {
        this.label = label;
        this.protocol = protocol;
    }

    /** Starts reading {@code process}'s stdout. */
    public static ProtocolLines read(Process process, String label, Pattern protocol) {
        ProtocolLines p = new ProtocolLines(label, protocol);
        Thread.ofPlatform().daemon().name("child-" + label).start(() -> p.pump(process));
        return p;
    }

    private void pump(Process process) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (protocol.matcher(line).matches()) {
                    lines.add(line);
                } else {
                    System.out.println("  [" + label + "] " + line);
                }
            }
        } catch (IOException e) {
            // child gone
        }
        lines.add("EXIT");
    }

    /**
     * The fields after {@code tag} of the child's next protocol line (none for a bare tag).
     *
     * @throws IllegalStateException when the child reports an error, exits, sends another line, or
     *         stays silent for {@code timeout}
     */
    public String[] expect(String tag, Duration timeout) {
        String line;
        try {
            line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + tag, e);
        }
        if (line == null) {
            throw new IllegalStateException(label + ": no " + tag + " within " + timeout);
        }
        if (!line.equals(tag) && !line.startsWith(tag + " ")) {
            throw new IllegalStateException(label + ": expected " + tag + ", got '" + line + "'");
        }
        String rest = line.substring(tag.length()).trim();
        return rest.isEmpty() ? new String[0] : rest.split(" ");
    }
}
