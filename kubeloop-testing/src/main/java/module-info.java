/**
 * Test doubles for code built on kubeloop: {@link io.kubeloop.testing.FakeTicker}, one clock for
 * every timed behaviour, and {@link io.kubeloop.testing.FakeListerWatcher}, a scripted source of
 * lists and watches. Use in test scope.
 */
module io.kubeloop.testing {
    requires transitive io.kubeloop.time;
    requires transitive io.kubeloop.cache;
    exports io.kubeloop.testing;
}
