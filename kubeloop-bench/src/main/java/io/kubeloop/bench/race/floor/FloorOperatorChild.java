package io.kubeloop.bench.race.floor;

import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.peers.race.RaceReporter;
import io.kubeloop.peers.race.RequestTally;
import java.net.URI;
import java.nio.file.Path;
import javax.net.ssl.SSLSocketFactory;

/**
 * Contender "floor" of the race: the sample-controller written with no framework at all
 * ({@link FloorOperator}) — the cheapest correct operator on this server and machine, whose time, CPU
 * and heap every framework is held to. Only its set-up borrows kubeloop's kubeconfig reading (the server's
 * address, TLS context and bearer token); its requests go over its own kept-alive HTTP/1.1 connections.
 * {@value #WORKERS} workers. Protocol: {@link RaceReporter}.
 */
public final class FloorOperatorChild {

    /** The workers, as many as kubeloop's sample runs. */
    static final int WORKERS = 8;

    private FloorOperatorChild() {}

    public static void main(String[] args) {
        RequestTally tally = new RequestTally();
        RaceReporter reporter = new RaceReporter(tally);
        FloorOperator operator;
        try {
            ClientConfig config = ClientConfig.fromKubeconfig(Path.of(args[0]));
            URI server = config.server();
            SSLSocketFactory tls = config.sslContext().getSocketFactory();
            String auth = config.auth().authorization().orElseThrow();
            int port = server.getPort() < 0 ? 443 : server.getPort();
            operator = new FloorOperator(() -> new Http1Connection(tls, server.getHost(), port, auth), tally, WORKERS);
            operator.start();
        } catch (Exception | LinkageError e) {
            reporter.fail(e);
            return;
        }
        reporter.ready();
        reporter.serveUntilStdinCloses(operator::stop);
    }
}
