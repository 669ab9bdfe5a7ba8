/**
 * client-go's {@code tools/cache}: reflectors, stores and indexers, shared informers and the
 * {@link io.kubeloop.cache.InformerFactory} that shares them, listers and event handlers; in
 * {@code io.kubeloop.cache.testing}, the {@link io.kubeloop.cache.testing.FakeListerWatcher} that feeds
 * them in unit tests without a server.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kubeloop.cache {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.client;
    requires transitive micrometer.core;
    requires org.slf4j;

    exports io.kubeloop.cache;
    exports io.kubeloop.cache.testing;
}
