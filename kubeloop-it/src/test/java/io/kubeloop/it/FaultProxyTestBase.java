package io.kubeloop.it;

import io.kubeloop.client.KubeClient;
import io.kubeloop.testing.faults.FaultInjectingProxy;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link EmbeddedServerTestBase} with a fault-injecting proxy in front of the server and a client that
 * goes through it: a test starts both as it needs them; they are closed after each test, before the
 * server.
 */
abstract class FaultProxyTestBase extends EmbeddedServerTestBase {

    protected FaultInjectingProxy proxy;
    protected KubeClient throughProxy;

    @AfterEach
    void stopProxy() {
        if (throughProxy != null) {
            throughProxy.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }
}
