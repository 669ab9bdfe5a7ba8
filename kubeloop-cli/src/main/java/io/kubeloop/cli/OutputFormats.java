package io.kubeloop.cli;

import java.util.Iterator;
import java.util.List;

/**
 * The {@code -o/--output} formats of a command, so that every command names, documents and checks them
 * the same way, in kubectl's words ({@code kubectl api-resources -o}): the option's description is
 * {@link #DESCRIPTION} ({@code Output format. One of: (wide, name).}) followed by what the command prints
 * without {@code -o} — picocli fills in the formats from the option's {@code completionCandidates}, the
 * command's {@code OutputFormats} subclass — and {@link #check} refuses any other format with
 * {@code --output x is not available (one of: wide, name)}.
 *
 * <p>Immutable and thread-safe.
 */
abstract class OutputFormats implements Iterable<String> {

    /** The start of every {@code -o} description; picocli replaces the variable with the formats. */
    static final String DESCRIPTION = "Output format. One of: (${COMPLETION-CANDIDATES}). Without -o: ";

    private final List<String> names;

    OutputFormats(String... names) {
        this.names = List.of(names);
    }

    @Override
    public Iterator<String> iterator() {
        return names.iterator();
    }

    /**
     * {@code requested} when it is one of these formats or null (the command's default).
     *
     * @throws IllegalArgumentException (one line, exit 1) for any other format
     */
    String check(String requested) {
        if (requested == null || names.contains(requested)) {
            return requested;
        }
        throw new IllegalArgumentException(
                "--output " + requested + " is not available (one of: " + String.join(", ", names) + ")");
    }
}
