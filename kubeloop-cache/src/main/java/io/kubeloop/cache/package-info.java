/**
 * Informers, as client-go's {@code tools/cache}: a local, indexed, eventually consistent copy of a
 * collection on the API server, plus notifications of its changes.
 *
 * <p>In data-path order:
 * <ul>
 *   <li>{@link io.kubeloop.cache.ListerWatcher} — lists and watches one collection
 *       ({@link io.kubeloop.cache.ListerWatcher#of} over a client's {@code ResourceClient};
 *       {@code io.kubeloop.cache.testing.FakeListerWatcher} in memory for tests).</li>
 *   <li>{@link io.kubeloop.cache.Reflector} — keeps a {@link io.kubeloop.cache.ReflectorStore} in
 *       step: (watch-)list, watch, bookmarks, 410 relists, back-off, resync; broken and silent watches
 *       are resumed from the last resourceVersion.</li>
 *   <li>an informer queue (in {@code io.kubeloop.cache.internal}, not API) — between reflector and cache:
 *       {@code RealFifo} (in order, atomic relists; the default) or
 *       {@code DeltaFifo} (per-key {@code Delta}s).</li>
 *   <li>{@link io.kubeloop.cache.Store} / {@link io.kubeloop.cache.Indexer} over a
 *       {@link io.kubeloop.cache.ThreadSafeStore} — the cache, keyed by
 *       {@link io.kubeloop.cache.KeyFunction}, with {@link io.kubeloop.cache.IndexFunction} indices.</li>
 *   <li>{@link io.kubeloop.cache.SharedIndexInformer} — ties them together and notifies any number of
 *       {@link io.kubeloop.cache.ResourceEventHandler}s, each on its own thread.</li>
 *   <li>{@link io.kubeloop.cache.InformerFactory} shares informers;
 *       {@link io.kubeloop.cache.Lister} reads the cache without API calls.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Every thread is made by the {@link io.kubeloop.cache.ReflectorOptions#threadFactory()
 * thread factory} of the options (virtual threads by default): per informer one reflector thread
 * (plus one resync timer while watching, when resync is on), one queue consumer, and one delivery
 * thread per handler. Locks are {@code ReentrantLock}s; {@code close()} stops and joins the threads.
 * Time comes from the options' {@code Ticker}, so tests run on a fake clock.
 */
package io.kubeloop.cache;
