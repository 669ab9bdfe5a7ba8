package io.kubeloop.testing.junit;

import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.KubeClient;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link EmbeddedApiServerTest} (also usable with {@code @ExtendWith}): starts an
 * {@link EmbeddedApiServer} per test class (or per test with {@code perTest = true}), resolves
 * {@code EmbeddedApiServer} and {@code KubeClient} parameters, and closes the server when the class (or
 * test) is done.
 *
 * <p><b>Thread safety.</b> Stateless; servers live in JUnit's extension store, which is thread-safe.
 */
public final class EmbeddedApiServerExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(EmbeddedApiServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        Class<?> t = p.getParameter().getType();
        return t == EmbeddedApiServer.class || t == KubeClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
        EmbeddedApiServer server = server(c);
        return p.getParameter().getType() == KubeClient.class ? server.client() : server;
    }

    private static EmbeddedApiServer server(ExtensionContext c) {
        java.util.Optional<EmbeddedApiServerTest> settings =
                c.getTestClass().map(k -> k.getAnnotation(EmbeddedApiServerTest.class));
        boolean perTest = settings.map(EmbeddedApiServerTest::perTest).orElse(false);
        boolean workloads = settings.map(EmbeddedApiServerTest::workloads).orElse(true);
        ExtensionContext owner = c;
        if (!perTest || c.getTestMethod().isEmpty()) {
            while (owner.getParent().isPresent()
                    && owner.getParent().get().getTestClass().isPresent()) {
                owner = owner.getParent().get();
            }
        }
        return owner.getStore(NS)
                .getOrComputeIfAbsent(
                        "server",
                        k -> new Holder(EmbeddedApiServer.start(io.kubeloop.apiserver.ServerOptions.defaults()
                                .withCluster(io.kubeloop.apiserver.SimulatedCluster.defaults()
                                        .withWorkloads(
                                                workloads
                                                        ? io.kubeloop.apiserver.SimulatedCluster.Workloads.PODS
                                                        : io.kubeloop.apiserver.SimulatedCluster.Workloads.OFF)))),
                        Holder.class)
                .server();
    }

    /** Closes the server when JUnit drops the store. */
    private record Holder(EmbeddedApiServer server) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
        }
    }
}
