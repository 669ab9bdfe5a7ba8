/**
 * What reading built-in kinds as JSON or as protobuf costs ({@link io.kubeloop.bench.wire.WireFormatBench}):
 * the bytes a Pod takes on the wire in each format and the time to decode it.
 */
package io.kubeloop.bench.wire;
