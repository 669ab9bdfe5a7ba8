package io.kubeloop.bench.server;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** A server under test, each started in its own child JVM by {@link ServerProcess}. */
enum ServerContender {
    /** kubeloop's embedded API server, from this module's class path. */
    KUBELOOP("kubeloop", "io.kubeloop.bench.server.KubeloopServerMain", Set.of(Transport.HTTP, Transport.WEBSOCKET)),
    /** fabric8 7.8.0's KubernetesMockServer in CRUD mode, from kubeloop-peers' class path. */
    FABRIC8("fabric8", "io.kubeloop.peers.Fabric8MockServerMain", Set.of(Transport.WEBSOCKET));

    private final String label;
    private final String mainClass;
    private final Set<Transport> transports;

    ServerContender(String label, String mainClass, Set<Transport> transports) {
        this.label = label;
        this.mainClass = mainClass;
        this.transports = transports;
    }

    /** The name used on the command line and in the report. */
    String label() {
        return label;
    }

    /** The child's main class. */
    String mainClass() {
        return mainClass;
    }

    /** The watch transports this server offers. */
    Set<Transport> transports() {
        return transports;
    }

    /** The child's arguments. */
    List<String> args(int watchBuffer) {
        return switch (this) {
            case KUBELOOP -> List.of(Integer.toString(watchBuffer));
            case FABRIC8 -> List.of();
        };
    }

    /**
     * The child's class path: this JVM's for kubeloop; kubeloop-peers' classes and the class path Maven
     * wrote to {@code kubeloop-peers/target/peer.classpath} for fabric8 (Jackson 2, vert.x, okhttp: never on
     * kubeloop's class path).
     *
     * @throws UncheckedIOException when the peer class path file is missing
     */
    String classPath() {
        return switch (this) {
            case KUBELOOP -> System.getProperty("java.class.path");
            case FABRIC8 -> {
                Path file =
                        Path.of(System.getProperty("kubeloop.peers.classpath", "kubeloop-peers/target/peer.classpath"));
                try {
                    Path classes = file.toAbsolutePath().getParent().resolve("classes");
                    yield classes + File.pathSeparator + Files.readString(file).trim();
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "fabric8 runs from kubeloop-peers' class path, but " + file
                                    + " is missing: build it first (mvn -pl kubeloop-bench,kubeloop-peers -am process-classes)",
                            e);
                }
            }
        };
    }

    /** Parses a label. */
    static ServerContender of(String s) {
        for (ServerContender c : values()) {
            if (c.label.equals(s)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown contender '" + s + "' (kubeloop or fabric8)");
    }
}
