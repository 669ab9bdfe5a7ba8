/**
 * The one clock of kubeloop, {@link io.kubeloop.time.Ticker}: monotonic time, wall time, parking
 * and sleeping. Every component takes its ticker from its options ({@code ClientOptions.ticker},
 * {@code ReflectorOptions.ticker}, {@code InformerOptions.ticker}, {@code WorkQueueOptions.ticker},
 * {@code ControllerOptions.ticker}, {@code LeaderElectionOptions.ticker},
 * {@code ManagerOptions.ticker}, {@code ServerOptions.ticker}); none reads
 * {@code System.nanoTime()} or the system clock, or waits with a timeout, on its own. Tests hand
 * all of them one {@link io.kubeloop.time.testing.FakeTicker}.
 */
package io.kubeloop.time;
