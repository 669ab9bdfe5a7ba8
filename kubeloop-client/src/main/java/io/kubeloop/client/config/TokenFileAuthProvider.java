package io.kubeloop.client.config;

import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bearer token read from a file ({@code tokenFile}, or the in-cluster service-account token) and
 * re-read when the file changes, so rotated tokens (projected service-account tokens rotate hourly)
 * are picked up.
 *
 * <p>Change detection: each {@link #authorization()} stats the file (one cheap syscall) and re-reads
 * it when its modification time, size or file key (inode) differ from the last read; it also
 * re-reads when the last read is older than {@link #MAX_AGE} (client-go's only rule: it re-reads at
 * most once a minute, which we keep as a backstop for rewrites that keep mtime and size), and after
 * {@link #invalidate()} (a 401). Surrounding whitespace is trimmed. If a later read fails or yields
 * an empty file, the last good token is kept (as client-go does); only when no token was ever read
 * does {@link #authorization()} throw {@link CredentialException}.
 *
 * <p>Thread-safe: readers see an immutable snapshot; re-reads are serialized by a lock.
 */
public final class TokenFileAuthProvider implements AuthProvider {

    /** A token older than this is re-read even if the file looks unchanged. */
    public static final Duration MAX_AGE = Duration.ofMinutes(1);

    private record Snapshot(Optional<String> header, FileTime modified, long size, Object fileKey, Instant readAt) {}

    private final Path file;
    private final Ticker clock;
    private final ReentrantLock lock = new ReentrantLock();
    /** The last successful read, or null before the first; replaced under {@link #lock}. */
    private volatile Snapshot snapshot;

    private volatile boolean invalidated;

    private TokenFileAuthProvider(Path file, Ticker clock) {
        this.file = Objects.requireNonNull(file, "file");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A provider that reads {@code file} now and again whenever it changes.
     *
     * @throws CredentialException when the file cannot be read now or is empty
     */
    public static TokenFileAuthProvider create(Path file, Ticker clock) {
        TokenFileAuthProvider provider = new TokenFileAuthProvider(file, clock);
        provider.refresh(null);
        if (provider.snapshot == null) {
            throw new CredentialException("token file " + file + ": cannot read it or it is empty");
        }
        return provider;
    }

    /** The file read. */
    public Path file() {
        return file;
    }

    @Override
    public Optional<String> authorization() {
        Snapshot current = snapshot;
        BasicFileAttributes attributes = stat();
        if (current == null
                || invalidated
                || changed(current, attributes)
                || !clock.instant().isBefore(current.readAt.plus(MAX_AGE))) {
            refresh(attributes);
            current = snapshot;
        }
        if (current == null) {
            throw new CredentialException("token file " + file + ": cannot read it or it is empty");
        }
        return current.header;
    }

    @Override
    public void invalidate() {
        invalidated = true;
    }

    private static boolean changed(Snapshot s, BasicFileAttributes a) {
        return a != null
                && (!a.lastModifiedTime().equals(s.modified)
                        || a.size() != s.size
                        || !Objects.equals(a.fileKey(), s.fileKey));
    }

    private BasicFileAttributes stat() {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
    }

    private void refresh(BasicFileAttributes before) {
        lock.lock();
        try {
            invalidated = false;
            BasicFileAttributes attributes = before != null ? before : stat();
            String token;
            try {
                token = Files.readString(file, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                keepOld();
                return;
            }
            if (token.isEmpty() || attributes == null) {
                keepOld();
                return;
            }
            snapshot = new Snapshot(
                    Optional.of("Bearer " + token),
                    attributes.lastModifiedTime(),
                    attributes.size(),
                    attributes.fileKey(),
                    clock.instant());
        } finally {
            lock.unlock();
        }
    }

    /** Keeps the last token but restarts its age, so a broken file is not re-read on every request. */
    private void keepOld() {
        Snapshot old = snapshot;
        if (old != null) {
            snapshot = new Snapshot(old.header, old.modified, old.size, old.fileKey, clock.instant());
        }
    }

    @Override
    public String toString() {
        return "TokenFileAuthProvider[" + file + "]";
    }
}
