package io.kubeloop.peers;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Ending the child JVMs that peers and benchmarks run: every child here exits when its standard
 * input closes, so {@link #stop} closes it, waits up to ten seconds, and only then kills.
 *
 * <p>Stateless and thread-safe.
 */
public final class ChildProcesses {

    private static final long GRACE_SECONDS = 10;

    private ChildProcesses() {}

    /**
     * Asks {@code process} to exit by closing its standard input and waits for it; kills it when it
     * has not exited within ten seconds, when its input cannot be closed, or when this thread is
     * interrupted (the interrupt flag is kept).
     */
    public static void stop(Process process) {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(GRACE_SECONDS, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
