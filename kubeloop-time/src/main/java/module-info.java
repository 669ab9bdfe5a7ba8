/**
 * The one clock of kubeloop: {@link io.kubeloop.time.Ticker}. Every timed behaviour of the library
 * (queue delays and rate limits, client retries and rate limits, reflector back-off, informer
 * resync, cache-sync timeouts, leader-election leases, event retries, the API server's timestamps)
 * reads and waits on a ticker it is given, so one fake ticker
 * ({@link io.kubeloop.time.testing.FakeTicker}) drives them all in a test.
 *
 * <p>{@code io.kubeloop.time.internal} holds helpers shared by kubeloop's own modules; it is no
 * API.
 */
@SuppressWarnings("module") // the qualified export names modules that are not on this module's path
module io.kubeloop.time {
    exports io.kubeloop.time;
    exports io.kubeloop.time.testing;
    exports io.kubeloop.time.internal to
            io.kubeloop.workqueue,
            io.kubeloop.client,
            io.kubeloop.cache,
            io.kubeloop.controller,
            io.kubeloop.apiserver,
            io.kubeloop.cli,
            io.kubeloop.testing;
}
