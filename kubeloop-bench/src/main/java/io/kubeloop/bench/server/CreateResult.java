package io.kubeloop.bench.server;

import java.time.Duration;

/**
 * Creating objects {@code from} (inclusive) to {@code to} (exclusive) with {@code concurrency} client
 * threads, each with its own connection, one request at a time.
 *
 * @param elapsed wall-clock time of all creates
 * @param serverCpu the server process's CPU time meanwhile
 */
record CreateResult(int from, int to, int concurrency, Duration elapsed, Duration serverCpu) {

    /** Objects created. */
    int count() {
        return to - from;
    }

    /** Creates per second. */
    double perSecond() {
        return count() / (elapsed.toNanos() / 1e9);
    }

    /** Server CPU microseconds per create. */
    double cpuMicrosEach() {
        return serverCpu.toNanos() / 1e3 / count();
    }
}
