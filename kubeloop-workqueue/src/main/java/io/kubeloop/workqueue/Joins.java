package io.kubeloop.workqueue;

/** Waiting for a queue's own thread to end. Stateless. */
final class Joins {

    private Joins() {
    }

    /**
     * Waits until {@code thread} has ended, going on through interrupts; the calling thread's
     * interrupt flag is set again on return if it was interrupted meanwhile. Returns at once when
     * called from {@code thread} itself.
     */
    static void joinUninterruptibly(Thread thread) {
        if (Thread.currentThread() == thread) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
