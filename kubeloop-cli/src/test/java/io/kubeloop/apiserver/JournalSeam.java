package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.storage.Journal;

/**
 * The CLI tests' way to give a server a journal of theirs (a failing one): the seam is package-private
 * in {@link ServerOptions}, and tests run on the class path, where this package may have classes in
 * two jars.
 */
public final class JournalSeam {

    private JournalSeam() {}

    /** {@code options} whose data directory's journal is {@code journal}. */
    public static ServerOptions withJournal(ServerOptions options, Journal journal) {
        return options.withJournalFactory(dir -> journal);
    }
}
