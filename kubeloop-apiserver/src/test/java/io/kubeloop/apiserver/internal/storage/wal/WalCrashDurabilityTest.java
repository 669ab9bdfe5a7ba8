package io.kubeloop.apiserver.internal.storage.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * THE durability test: a child JVM ({@link WalCrashChild}) appends from many threads and
 * checkpoints, printing each sequence only once {@code append} returned; it is killed with
 * SIGKILL at a random moment, several rounds over one directory. After each kill every sequence
 * the child acknowledged, in this round or any earlier one, must be recovered with its exact bytes,
 * and the next run must continue above the recovered last sequence.
 */
class WalCrashDurabilityTest {

    private static final int ROUNDS = 6;
    private static final int APPENDER_THREADS = 64;
    private static final Duration ROUND_LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    /** One message line from the child, or the end of its output. */
    private sealed interface Line permits Ready, Ack, End {}

    private record Ready(long lastSequence) implements Line {}

    private record Ack(long sequence) implements Line {}

    private record End() implements Line {}

    @Test
    void everyAcknowledgedAppendSurvivesSigkillAtARandomMoment() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path dir = tmp.resolve("data");
        Set<Long> acknowledged = new HashSet<>();
        long lastRecovered = 0;
        int tornTails = 0;
        int roundsFromSnapshot = 0;

        for (int round = 1; round <= ROUNDS; round++) {
            int killAfterAcks = 1 + random.nextInt(round == 1 ? 500 : 4000);
            String context = "round " + round + " (seed " + seed + ", kill after " + killAfterAcks + " acks)";
            Path stderr = tmp.resolve("child-" + round + ".err");
            Process child = startChild(dir, stderr);
            BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
            Thread reader = Thread.ofVirtual().start(() -> readLines(child.getInputStream(), lines));
            try {
                Line first = lines.poll(ROUND_LIMIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(first)
                        .as("%s: child's first line; stderr: %s", context, read(stderr))
                        .isInstanceOf(Ready.class);
                assertThat(((Ready) first).lastSequence())
                        .as("%s: the child recovers what we recovered", context)
                        .isEqualTo(lastRecovered);
                if (round == 1) {
                    assertThatThrownBy(() -> WriteAheadLog.open(dir, WalOptions.defaults()))
                            .isInstanceOf(WalLockedException.class)
                            .hasMessageContaining("data directory " + dir.toAbsolutePath())
                            .hasMessageContaining("in process " + child.pid());
                }
                int acks = 0;
                while (acks < killAfterAcks) {
                    Line line = lines.poll(ROUND_LIMIT.toSeconds(), TimeUnit.SECONDS);
                    assertThat(line)
                            .as("%s: child output after %d acks; stderr: %s", context, acks, read(stderr))
                            .isInstanceOf(Ack.class);
                    long seq = ((Ack) line).sequence();
                    assertThat(seq)
                            .as("%s: new sequences continue above the recovered ones", context)
                            .isGreaterThan(lastRecovered);
                    acknowledged.add(seq);
                    acks++;
                }
            } finally {
                child.destroyForcibly(); // SIGKILL on Linux
                assertThat(child.waitFor(ROUND_LIMIT.toSeconds(), TimeUnit.SECONDS))
                        .isTrue();
            }
            reader.join();
            for (Line line : drain(lines)) {
                if (line instanceof Ack(long seq)) {
                    acknowledged.add(seq);
                }
            }

            NavigableSet<Long> recovered = new TreeSet<>();
            Recovery recovery;
            try (WriteAheadLog wal = WriteAheadLog.open(dir, WalOptions.defaults())) {
                recovery = wal.recover((seq, in) -> recovered.addAll(WalCrashChild.readSnapshot(in)), (seq, rec) -> {
                    assertThat(rec).as("%s: bytes of sequence %d", context, seq).isEqualTo(WalFixtures.payload(seq));
                    recovered.add(seq);
                });
            }
            assertThat(recovery.truncations())
                    .as(context)
                    .allSatisfy(t -> assertThat(t.cause()).isEqualTo(Truncation.Cause.TORN_TAIL));
            tornTails += recovery.truncations().size();
            if (recovery.snapshotSequence() > 0) {
                roundsFromSnapshot++;
            }
            Set<Long> lost = new TreeSet<>(acknowledged);
            lost.removeAll(recovered);
            assertThat(lost).as("%s: acknowledged but not recovered", context).isEmpty();
            assertThat(recovery.lastSequence())
                    .as(context)
                    .isGreaterThanOrEqualTo(recovered.isEmpty() ? 0 : recovered.last())
                    .isGreaterThanOrEqualTo(lastRecovered);
            lastRecovered = recovery.lastSequence();
        }
        assertThat(roundsFromSnapshot)
                .as("the child's checkpoints were exercised")
                .isPositive();
        System.out.printf(
                "WalCrashDurabilityTest: %d rounds, %d acknowledged appends all recovered, last sequence %d,"
                        + " %d recoveries from a snapshot, %d torn tails cut, seed %d%n",
                ROUNDS, acknowledged.size(), lastRecovered, roundsFromSnapshot, tornTails, seed);
    }

    private static Process startChild(Path dir, Path stderr) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                WalCrashChild.class.getName(),
                dir.toString(),
                Integer.toString(APPENDER_THREADS)));
        return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    }

    /** Only newline-terminated lines count: a line cut by the kill is not an acknowledgement. */
    private static void readLines(InputStream in, BlockingQueue<Line> lines) {
        StringBuilder current = new StringBuilder();
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    char c = (char) buf[i];
                    if (c != '\n') {
                        current.append(c);
                        continue;
                    }
                    String line = current.toString();
                    current.setLength(0);
                    if (line.startsWith("ACK ")) {
                        lines.add(new Ack(Long.parseLong(line.substring(4))));
                    } else if (line.startsWith("READY ")) {
                        lines.add(new Ready(Long.parseLong(line.substring(6))));
                    }
                }
            }
        } catch (IOException e) {
            // the pipe breaks when the child is killed
        }
        lines.add(new End());
    }

    private static List<Line> drain(BlockingQueue<Line> lines) {
        List<Line> rest = new ArrayList<>();
        lines.drainTo(rest);
        return rest;
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
