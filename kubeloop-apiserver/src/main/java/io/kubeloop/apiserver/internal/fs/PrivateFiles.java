package io.kubeloop.apiserver.internal.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that only their owner may read and write: kubeconfigs (they hold a bearer token), TLS keys and
 * certificates, the token file and the write-ahead log (it holds every object, Secrets included). Where the
 * file system supports POSIX permissions, files are created {@code 0600} and directories {@code 0700} —
 * from the start, through the attributes of the call that creates them, never by a {@code chmod} after
 * the content is there — so no other user can open them even for a moment (the process umask can only
 * take bits away). Elsewhere they get the file system's defaults. Existing directories are left as they
 * are.
 *
 * <p>Stateless and thread-safe. {@link #write} is not meant for two processes writing one file at once.
 */
public final class PrivateFiles {

    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

    private PrivateFiles() {}

    /** Whether {@code path}'s file system has POSIX permissions. */
    public static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * The attributes that create a file owner-only ({@code 0600}) on {@code path}'s file system, for
     * {@link Files#createFile} or {@link FileChannel#open(Path, Set, FileAttribute...)}; none where it
     * has no POSIX permissions.
     */
    public static FileAttribute<?>[] fileAttributes(Path path) {
        return posix(path) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : NONE;
    }

    /** The attributes that create a directory owner-only ({@code 0700}); none where there are no POSIX permissions. */
    public static FileAttribute<?>[] directoryAttributes(Path path) {
        return posix(path) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIRECTORY)} : NONE;
    }

    /**
     * Creates {@code dir} and its missing parents, each owner-only ({@code 0700}); existing ones are left alone.
     *
     * @return {@code dir}
     */
    public static Path createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return dir;
        }
        Files.createDirectories(absolute, directoryAttributes(absolute));
        return dir;
    }

    /** A new owner-only temporary directory ({@code 0700}) in the default temporary-file directory. */
    public static Path createTempDirectory(String prefix) throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        return Files.createTempDirectory(tmp, prefix, directoryAttributes(tmp));
    }

    /**
     * Replaces {@code file}'s content with {@code content}, owner-only: the bytes go to a new {@code 0600} file
     * beside it, are forced to disk and renamed over {@code file} (atomically where the file system can), so
     * a reader sees the old file or the new one, and a file that was readable by others before is replaced
     * by one that is not. Missing parent directories are created {@code 0700}. A symbolic link is followed:
     * its target is replaced, the link stays.
     *
     * @return {@code file}
     */
    public static Path write(Path file, byte[] content) throws IOException {
        Path target = Files.isSymbolicLink(file) && Files.exists(file) ? file.toRealPath() : file.toAbsolutePath();
        Path parent = target.getParent();
        createDirectories(parent);
        Path tmp = Files.createTempFile(parent, "." + target.getFileName(), ".tmp", fileAttributes(parent));
        boolean moved = false;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(content);
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            moved = true;
            syncDirectory(parent);
        } finally {
            if (!moved) {
                Files.deleteIfExists(tmp);
            }
        }
        return file;
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // directories cannot be forced on every platform; the rename is still atomic
        }
    }
}
