/**
 * The fake clock for tests, beside the clock it stands in for: {@link io.kubeloop.time.testing.FakeTicker}, a
 * {@link io.kubeloop.time.Ticker} that stands still until the test steps it, so every timed behaviour of kubeloop
 * handed it (delays, back-off, resyncs, leases, timeouts) happens when the test says.
 */
package io.kubeloop.time.testing;
