package io.kubeloop.peers;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The line protocol of the informer peers ({@link Fabric8InformerMain}, {@link KubernetesClientInformerMain}):
 * one line per event on stdout, flushed at once.
 *
 * <ul>
 *   <li>{@code STARTED} once the informer was started;</li>
 *   <li>{@code ADD|UPDATE|DELETE <name> <data>} per handler call, {@code <data>} being the ConfigMap's
 *       data as {@code k=v} pairs sorted by key and joined by {@code ,} ({@code -} when empty);</li>
 *   <li>{@code SYNCED} once the informer reports that its first list was delivered;</li>
 *   <li>{@code ERROR <message>} for a failure the peer saw (its handler or its client).</li>
 * </ul>
 *
 * <p><b>Thread safety.</b> Thread-safe: each line is written under the stream's own lock.
 */
public final class InformerEvents {

    private final PrintStream out;

    /** Writes the protocol to {@code out}. */
    public InformerEvents(PrintStream out) {
        this.out = out;
    }

    /** Reports an ADD, UPDATE or DELETE of the ConfigMap {@code name} with {@code data}. */
    public void event(String type, String name, Map<String, String> data) {
        emit(line(type, name, data));
    }

    /** Reports a protocol keyword such as {@code STARTED} or {@code SYNCED}. */
    public void mark(String keyword) {
        emit(keyword);
    }

    /** Reports a failure, on one line. */
    public void error(Throwable failure) {
        String message = String.valueOf(failure);
        emit("ERROR " + message.lines().findFirst().orElse(message));
    }

    /** The line for an event: {@code TYPE name k=v,k2=v2} ({@code -} for no data). */
    public static String line(String type, String name, Map<String, String> data) {
        String pairs = data == null || data.isEmpty()
                ? "-"
                : new TreeMap<>(data)
                        .entrySet().stream()
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .collect(Collectors.joining(","));
        return type + " " + name + " " + pairs;
    }

    private void emit(String line) {
        out.println(line);
        out.flush();
    }
}
