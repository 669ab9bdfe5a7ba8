package io.kubeloop.controller.metrics;

import java.time.Duration;

/** Histogram bucket bounds given in seconds, as Kubernetes' metrics list them. Stateless. */
final class Buckets {

    private Buckets() {}

    /** The bounds {@code seconds} as durations, in the order given. */
    static Duration[] seconds(double... seconds) {
        Duration[] b = new Duration[seconds.length];
        for (int i = 0; i < seconds.length; i++) {
            b[i] = Duration.ofNanos(Math.round(seconds[i] * 1e9));
        }
        return b;
    }
}
