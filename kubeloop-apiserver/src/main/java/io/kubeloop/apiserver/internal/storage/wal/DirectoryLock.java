package io.kubeloop.apiserver.internal.storage.wal;

import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * An exclusive OS lock on {@code <dir>/wal.lock}, held from open to close, so that two processes
 * (or two logs in one JVM) never write one directory. The lock file holds the owner's process id
 * for the error message; the OS drops the lock when the process dies, {@code kill -9} included, so
 * no stale lock survives a crash. Not thread-safe; owned by one log.
 */
final class DirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "wal.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DirectoryLock acquire(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ),
                PrivateFiles.fileAttributes(dir));
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new WalLockedException(
                    dir,
                    "data directory " + dir + " is in use by another write-ahead log" + owner(file) + " (lock file "
                            + file + " is held); stop it or choose another directory");
        }
        try {
            byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(pid), 0);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return new DirectoryLock(channel, lock);
    }

    private static String owner(Path file) {
        try {
            String pid = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (pid.matches("\\d+")) {
                return pid.equals(Long.toString(ProcessHandle.current().pid()))
                        ? " in this process (pid " + pid + ")"
                        : " in process " + pid;
            }
        } catch (IOException | RuntimeException e) {
            // the pid is only decoration for the message
        }
        return "";
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
