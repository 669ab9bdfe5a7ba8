/**
 * Fault injection for controller tests: {@link io.kubeloop.testing.faults.FaultInjectingProxy}, an
 * HTTPS proxy to put between the code under test and an {@link io.kubeloop.apiserver.EmbeddedApiServer},
 * which cuts responses off mid-stream, stalls them, refuses requests with 429 or 500, ends watches
 * with 410 Expired, and blackholes connections (silent and open for good) as a
 * {@link io.kubeloop.testing.faults.FaultPlan} chooses. These faults are per request, over HTTP/1.1
 * with a connection per request. For HTTP/2, whose requests share one connection, the proxy also runs
 * as a connection-level relay ({@link io.kubeloop.testing.faults.FaultInjectingProxy#startRelay}):
 * ALPN {@code h2} or {@code http/1.1}, bytes relayed raw, and connections frozen — nothing more passing
 * either way, open until the client hangs up — all at once
 * ({@link io.kubeloop.testing.faults.FaultInjectingProxy#freezeAll()}) or after some bytes or time as
 * a {@link io.kubeloop.testing.faults.ConnectionPlan} chooses.
 *
 * {@snippet :
 * try (EmbeddedApiServer server = EmbeddedApiServer.start();
 *      FaultInjectingProxy proxy = FaultInjectingProxy.start(server, FaultPlan.random(seed, 0.3, 16 * 1024, Duration.ofSeconds(1)));
 *      KubeClient flaky = KubeClient.create(proxy.clientConfig(), ClientOptions.defaults())) {
 *     // run the controller on `flaky`, change objects through server.client(), then check the end state
 * }
 * }
 */
package io.kubeloop.testing.faults;
