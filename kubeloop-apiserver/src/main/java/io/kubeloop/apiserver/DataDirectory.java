package io.kubeloop.apiserver;

import io.kubeloop.apiserver.internal.fs.PrivateFiles;
import io.kubeloop.apiserver.internal.tls.TlsMaterial;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The layout of a server's {@code --data-dir}: everything that must survive a restart.
 *
 * <pre>
 * DATA_DIR/
 *   wal/      the write-ahead log: wal.lock, segments NNN.wal, snapshot-NNN.snap (see storage.wal)
 *   pki/      ca.crt, ca.key, server.crt, server.key
 *   token     the bearer token, generated on first start unless one is given
 * </pre>
 *
 * <p>Every file the server creates here is owner-only (0600) and every directory it creates 0700, from the
 * start, where the file system has POSIX permissions ({@link PrivateFiles}); a data directory that exists
 * already keeps its permissions.
 *
 * <p>The write-ahead log's lock ({@code wal/wal.lock}) is what keeps a second process off the directory;
 * the server opens the log before it touches {@code pki/} or {@code token}.
 *
 * <p>Immutable and thread-safe (the file operations are not meant to race with another process).
 *
 * @param root the data directory
 */
public record DataDirectory(Path root) {

    public DataDirectory {
        Objects.requireNonNull(root, "root");
        root = root.toAbsolutePath().normalize();
    }

    /** The write-ahead log's directory. */
    public Path wal() {
        return root.resolve("wal");
    }

    /** The TLS material's directory. */
    public Path pki() {
        return root.resolve("pki");
    }

    /** The token file. */
    public Path tokenFile() {
        return root.resolve("token");
    }

    /** The CA and server certificate of this directory, created on first use. */
    TlsMaterial tls() {
        return TlsMaterial.persistent(pki());
    }

    /**
     * The bearer token: {@code given} when not null (the file is left alone), else the one stored in
     * {@link #tokenFile()}, generated and stored (owner-only, 0600) on first use.
     */
    public String token(String given) {
        if (given != null) {
            return given;
        }
        Path file = tokenFile();
        try {
            if (Files.exists(file)) {
                String stored =
                        Files.readString(file, StandardCharsets.US_ASCII).strip();
                if (stored.isEmpty()) {
                    throw new IllegalStateException(
                            "token file " + file + " is empty; delete it to generate a new token");
                }
                return stored;
            }
            String token = randomToken();
            PrivateFiles.write(file, (token + "\n").getBytes(StandardCharsets.US_ASCII));
            return token;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the token file " + file + ": " + e.getMessage(), e);
        }
    }

    /** A random 48-hex-digit token. */
    static String randomToken() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
