package io.kubeloop.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about the machine a benchmark runs on, for its report. Stateless; thread-safe. */
public final class Machine {

    private Machine() {}

    /** The load average over 1, 5 and 15 minutes ({@code 1.02 / 0.80 / 0.75}), or {@code unknown}. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
