package io.kubeloop.peers;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Small helpers shared by the peers' main classes. Stateless. */
final class Peers {

    private Peers() {}

    /** Keeps the peers' libraries (java.util.logging) to warnings: their request logs would drown the tests'. */
    static void quietJavaUtilLogging() {
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        for (Handler h : root.getHandlers()) {
            h.setLevel(Level.WARNING);
        }
    }

    /**
     * Prints {@code SYNCED} from a virtual thread once {@code synced} holds. The peers' informers offer
     * no sync callback, so this polls every 10 ms (a peer, not kubeloop code: no clock to fake).
     */
    static void reportSynced(BooleanSupplier synced, InformerEvents events) {
        Thread.ofVirtual().name("synced-reporter").start(() -> {
            try {
                while (!synced.getAsBoolean()) {
                    Thread.sleep(10);
                }
                events.mark("SYNCED");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Blocks until the parent closes our stdin (or dies). */
    static void awaitStdinClosed() throws IOException {
        while (System.in.read() >= 0) {
            // ignore input
        }
    }
}
