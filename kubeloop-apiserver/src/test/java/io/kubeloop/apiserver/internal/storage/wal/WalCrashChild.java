package io.kubeloop.apiserver.internal.storage.wal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The process {@link WalCrashDurabilityTest} kills: recovers the log in {@code args[0]}, prints
 * {@code READY <lastSequence>}, then appends from {@code args[1]} virtual threads and prints
 * {@code ACK <sequence>} only after {@code append} returned, while another thread checkpoints now
 * and then. Its "state" is the set of sequences it holds; a snapshot is that set. Runs until killed.
 */
public final class WalCrashChild {

    private WalCrashChild() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        WalOptions options = WalOptions.builder().segmentSize(32 * 1024).build();
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.US_ASCII);

        WriteAheadLog wal = WriteAheadLog.open(dir, options);
        NavigableSet<Long> state = new ConcurrentSkipListSet<>();
        Recovery recovery = wal.recover((seq, in) -> state.addAll(readSnapshot(in)), (seq, rec) -> state.add(seq));
        out.println("READY " + recovery.lastSequence());

        ReentrantLock issue = new ReentrantLock();
        long[] next = {recovery.lastSequence()};
        NavigableSet<Long> inFlight = new TreeSet<>(); // guarded by issue
        for (int t = 0; t < threads; t++) {
            Thread.ofVirtual().start(() -> {
                while (true) {
                    long seq;
                    issue.lock();
                    try {
                        seq = ++next[0];
                        inFlight.add(seq);
                    } finally {
                        issue.unlock();
                    }
                    wal.append(seq, WalFixtures.payload(seq));
                    state.add(seq);
                    issue.lock();
                    try {
                        inFlight.remove(seq);
                    } finally {
                        issue.unlock();
                    }
                    out.println("ACK " + seq);
                }
            });
        }
        while (true) {
            Thread.sleep(40);
            long upTo;
            issue.lock();
            try {
                upTo = inFlight.isEmpty() ? next[0] : inFlight.first() - 1;
            } finally {
                issue.unlock();
            }
            long covered = upTo;
            try {
                wal.checkpoint(covered, o -> writeSnapshot(o, state.headSet(covered, true)));
            } catch (IllegalArgumentException notAdvanced) {
                // nothing new since the last checkpoint
            }
        }
    }

    static void writeSnapshot(OutputStream o, NavigableSet<Long> sequences) {
        try {
            DataOutputStream data = new DataOutputStream(o);
            Long[] copy = sequences.toArray(Long[]::new);
            data.writeInt(copy.length);
            for (long s : copy) {
                data.writeLong(s);
            }
            data.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static NavigableSet<Long> readSnapshot(InputStream in) {
        try {
            DataInputStream data = new DataInputStream(in);
            int n = data.readInt();
            NavigableSet<Long> set = new TreeSet<>();
            for (int i = 0; i < n; i++) {
                set.add(data.readLong());
            }
            return set;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
