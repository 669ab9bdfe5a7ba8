package io.kubeloop.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A benchmark's generated block in BENCHMARKS.md: the text between a begin and an end marker,
 * replaced by each run while the hand-written text around it stays. Also the median the reports use.
 *
 * @param begin the begin marker (an HTML comment naming the generator)
 * @param end the end marker
 * @param section the heading (without {@code ## }) under which a missing block is appended
 */
public record GeneratedBlock(String begin, String end, String section) {

    /** Replaces the block in {@code file}, or appends the section with it when absent. */
    public void writeInto(Path file, String block) {
        try {
            String text = Files.exists(file) ? Files.readString(file) : "";
            String generated = begin + "\n" + block + end;
            int b = text.indexOf(begin);
            int e = text.indexOf(end);
            if (b >= 0 && e > b) {
                text = text.substring(0, b) + generated + text.substring(e + end.length());
            } else {
                text = text + (text.endsWith("\n") ? "" : "\n") + "\n## " + section + "\n\n" + generated + "\n";
            }
            Files.writeString(file, text);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot update " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** The median of a metric over results; NaN for none. */
    public static <R> double median(List<R> results, ToDoubleFunction<R> metric) {
        double[] v = results.stream().mapToDouble(metric).toArray();
        Arrays.sort(v);
        return v.length == 0
                ? Double.NaN
                : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
