package io.kubeloop.time.internal;

/**
 * Waiting for a component's own threads to end when it stops. Stateless.
 *
 * <p>For kubeloop's modules only; not an API.
 */
public final class Joins {

    private Joins() {}

    /**
     * Waits until {@code thread} has ended, going on through interrupts: a component that stops
     * must not leave its thread running because the stopping thread was interrupted. The calling
     * thread's interrupt flag is set again on return if it was set on entry or interrupted meanwhile.
     * Returns at once when called from {@code thread} itself (a thread cannot outlive itself) or
     * when {@code thread} is null.
     *
     * @param thread the thread to wait for, or null
     */
    public static void joinUninterruptibly(Thread thread) {
        if (thread == null || thread == Thread.currentThread()) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * {@link #joinUninterruptibly(Thread)} for each thread in turn, skipping the calling thread.
     *
     * @param threads the threads to wait for
     */
    public static void joinAllUninterruptibly(Iterable<? extends Thread> threads) {
        for (Thread t : threads) {
            joinUninterruptibly(t);
        }
    }
}
