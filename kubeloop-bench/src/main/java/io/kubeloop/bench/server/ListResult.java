package io.kubeloop.bench.server;

import java.time.Duration;

/**
 * One unpaginated LIST as the driver saw it.
 *
 * @param items number of items parsed
 * @param bytes response body size
 * @param firstByte request sent → first body byte read
 * @param parsed request sent → whole body parsed into a Jackson tree
 * @param serverCpu the server process's CPU time during the LIST
 */
record ListResult(int items, long bytes, Duration firstByte, Duration parsed, Duration serverCpu) {

    /** This result with the server's CPU time. */
    ListResult withServerCpu(Duration cpu) {
        return new ListResult(items, bytes, firstByte, parsed, cpu);
    }
}
