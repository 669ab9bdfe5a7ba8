package io.kubeloop.apiserver.internal.storage.wal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Group-commit throughput: N virtual threads each call {@link WriteAheadLog#append} in a loop
 * (every call waits for its own fsync) for a fixed time; prints durable appends per second and
 * records per group commit for N = 1, 16, 256. A benchmark, not a test: run it by hand,
 *
 * <pre>
 * mvn -q -pl kubeloop-apiserver -am test-compile
 * java -cp kubeloop-apiserver/target/classes:kubeloop-apiserver/target/test-classes \
 *     io.kubeloop.apiserver.internal.storage.wal.WalGroupCommitBenchmark [dir] [seconds] [recordBytes]
 * </pre>
 *
 * The directory must be on the disk being measured ({@code /tmp} on tmpfs measures nothing).
 */
public final class WalGroupCommitBenchmark {

    private WalGroupCommitBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path base = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("java.io.tmpdir"));
        Duration duration = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 3);
        int recordBytes = args.length > 2 ? Integer.parseInt(args[2]) : 512;
        System.out.printf("group commit, %d-byte records, %s per run, directory %s%n", recordBytes, duration, base);
        System.out.printf("%10s %14s %16s %12s%n", "appenders", "appends/s", "records/commit", "MB/s");
        for (int appenders : new int[] {1, 16, 256}) {
            Path dir = Files.createTempDirectory(base, "wal-bench-");
            try {
                run(dir, appenders, Duration.ofMillis(500), recordBytes); // warm-up
                Result r = run(dir, appenders, duration, recordBytes);
                System.out.printf(
                        "%10d %14.0f %16.1f %12.1f%n",
                        appenders, r.appendsPerSecond(), r.recordsPerCommit(), r.bytesPerSecond() / 1e6);
            } finally {
                deleteRecursively(dir);
            }
        }
    }

    private record Result(double appendsPerSecond, double recordsPerCommit, double bytesPerSecond) {}

    private static Result run(Path dir, int appenders, Duration duration, int recordBytes) throws InterruptedException {
        deleteRecursively(dir);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults())) {
            wal.recover((seq, in) -> {}, (seq, rec) -> {});
            AtomicLong sequence = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            byte[] record = new byte[recordBytes];
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < appenders; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    while (!stop.get()) {
                        wal.append(sequence.incrementAndGet(), record);
                    }
                }));
            }
            Thread.sleep(duration);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            WalStats stats = wal.stats();
            return new Result(
                    stats.records() / seconds, (double) stats.records() / stats.batches(), stats.bytes() / seconds);
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) {
                    Files.delete(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
