package io.kubeloop.peers;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a peer's child JVM: this JDK's {@code java}, this module's classes and the
 * class path Maven wrote to {@code kubeloop-peers/target/peer.classpath} (named by the system property
 * {@link PeerProcess#CLASSPATH_PROPERTY}). Stateless.
 */
final class PeerJvm {

    private PeerJvm() {}

    /**
     * {@code java ... -cp <peers> mainClass args...}.
     *
     * @throws IllegalStateException when the peer class path file is unknown or missing
     */
    static List<String> command(String mainClass, List<String> args) {
        String file = System.getProperty(PeerProcess.CLASSPATH_PROPERTY);
        if (file == null || !Files.isRegularFile(Path.of(file))) {
            throw new IllegalStateException("peer class path not found: system property "
                    + PeerProcess.CLASSPATH_PROPERTY + " is " + file + " (build kubeloop-peers with Maven first)");
        }
        try {
            String deps = Files.readString(Path.of(file)).trim();
            String self = Path.of(PeerJvm.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    self + File.pathSeparator + deps,
                    mainClass));
            if (Runtime.version().feature() >= 24) {
                command.add(1, "--sun-misc-unsafe-memory-access=allow"); // netty, inside the peer
            }
            command.addAll(args);
            return command;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
