/**
 * Test doubles for code built on kubeloop. Add {@code io.kubeloop:kubeloop-testing} in test scope.
 *
 * <h2>Testing with a fake clock</h2>
 * Everything in kubeloop that reads or waits for time does so through the
 * {@link io.kubeloop.time.Ticker} in its options — nothing reads {@code System.nanoTime()} or the
 * system clock on its own. Hand one {@link io.kubeloop.testing.FakeTicker} to all of them and the
 * test decides when time passes:
 * <ul>
 *   <li>{@code ClientOptions.builder().ticker(ticker)} — rate limiter, retries, discovery cache;</li>
 *   <li>{@code InformerOptions.builder().ticker(ticker)} (or {@code ReflectorOptions.ticker}) —
 *       reflector back-off, watch timing, resync, {@code waitForCacheSync} timeouts;</li>
 *   <li>{@code WorkQueueConfig.builder().ticker(ticker)} and the rate limiter factories — queue
 *       delays and back-off;</li>
 *   <li>{@code ControllerOptions.builder(name).ticker(ticker)} — the controller's queue, default
 *       rate limiter and cache-sync timeout;</li>
 *   <li>{@code LeaderElectionConfig.withTicker(ticker)} — retries, renew deadline, lease expiry;</li>
 *   <li>{@code ManagerOptions.withTicker(ticker)} — the manager's informers, election, controllers
 *       built for it, and {@code awaitTermination};</li>
 *   <li>{@code new EventBroadcaster(client, ticker, tries, retryDelay)} — Event times and retries;</li>
 *   <li>{@code ServerOptions.withTicker(ticker)} — the embedded API server's timestamps and its
 *       built-in controllers.</li>
 * </ul>
 *
 * {@snippet :
 * FakeTicker ticker = new FakeTicker();
 * RateLimitingQueue<String> queue = RateLimitingQueue.create(RateLimiter.defaultControllerRateLimiter(ticker),
 *         WorkQueueConfig.builder().name("example").ticker(ticker).build());
 * queue.addAfter("retry", Duration.ofMinutes(5));
 * ticker.awaitWaiters(1);             // the queue's timer is parked on the ticker
 * assertThat(queue.len()).isZero();   // nothing is due ...
 * ticker.step(Duration.ofMinutes(5)); // ... until the test says five minutes have passed
 * assertThat(queue.get()).contains("retry");
 * queue.shutDown();
 * }
 *
 * <p>{@link io.kubeloop.testing.FakeTicker#awaitWaiters(int)} waits (without polling) until the
 * component threads are parked on the ticker — after a step, until they have reacted and parked
 * again — so a test neither sleeps in real time nor races the threads it drives.
 * {@link io.kubeloop.testing.FakeTicker#autoAdvancing()} makes a ticker whose {@code sleep} steps
 * the clock, for code that sleeps on the test's own thread (a client's retries).
 *
 * <p>{@link io.kubeloop.testing.FakeListerWatcher} stands in for the API server under a reflector
 * or informer: scripted objects, watch history, 410s, broken watches and failing requests.
 *
 * <p>Against a real server: {@code io.kubeloop.testing.junit.EmbeddedApiServerTest} runs a JUnit 5
 * test class against an {@code EmbeddedApiServer}, and {@code io.kubeloop.testing.faults.FaultInjectingProxy}
 * puts faults (cut responses, stalls, 429/500, 410, frozen connections) between the code under test
 * and that server.
 */
package io.kubeloop.testing;
