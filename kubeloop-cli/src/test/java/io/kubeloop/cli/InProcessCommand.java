package io.kubeloop.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@code kubeloop} command running in this JVM on a thread of its own, with its output; stopped as
 * SIGINT stops it.
 *
 * @param thread the thread running {@link Main#run}
 * @param out what it printed on stdout so far
 * @param err what it printed on stderr so far
 * @param exit its exit code once it ended, else -1
 */
record InProcessCommand(Thread thread, StringWriter out, StringWriter err, AtomicInteger exit) {

    /** Starts {@code kubeloop args...}. */
    static InProcessCommand start(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger exit = new AtomicInteger(-1);
        Thread thread =
                Thread.ofPlatform().start(() -> exit.set(Main.run(new PrintWriter(out), new PrintWriter(err), args)));
        return new InProcessCommand(thread, out, err, exit);
    }

    /** Interrupts its wait, as SIGINT does, and waits up to 30 s for it to end. */
    void stop() throws InterruptedException {
        thread.interrupt();
        thread.join(Duration.ofSeconds(30));
    }
}
