/**
 * The race's floor: the sample-controller written with no framework at all — its own kept-alive
 * HTTP/1.1 connections, the few fields it needs read with a streaming parser, a minimal de-duplicating
 * queue and exactly the requests a correct operator must send — against which the frameworks' time,
 * CPU and heap are measured.
 */
package io.kubeloop.bench.race.floor;
