package io.kubeloop.testing.junit;

import io.kubeloop.apiserver.AdmissionPlugin;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.apiserver.ServerOptions;
import io.kubeloop.apiserver.SimulatedCluster;
import io.kubeloop.client.KubeClient;
import io.kubeloop.testing.crd.CrdInstaller;
import io.kubeloop.testing.crd.CrdSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension behind {@link EmbeddedApiServerTest} (also usable with {@code @ExtendWith}): starts an
 * {@link EmbeddedApiServer} per test class (or per test with {@code perTest = true}) with the annotation's
 * admission plugins, installs the annotation's CRDs into it ({@link CrdInstaller}), resolves {@code EmbeddedApiServer} and
 * {@code KubeClient} parameters, and closes the server when the class (or test) is done.
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
        Optional<EmbeddedApiServerTest> settings =
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
        ClassLoader loader = c.getTestClass().map(Class::getClassLoader).orElse(null);
        List<CrdSource> crds = settings.map(s -> crdSources(s, loader)).orElse(List.of());
        ServerOptions options = ServerOptions.defaults()
                .withCluster(SimulatedCluster.defaults()
                        .withWorkloads(workloads ? SimulatedCluster.Workloads.PODS : SimulatedCluster.Workloads.OFF));
        for (AdmissionPlugin plugin :
                settings.map(EmbeddedApiServerTest::admissionPlugins).orElse(new AdmissionPlugin[0])) {
            options = options.withAdmissionPlugin(plugin);
        }
        ServerOptions chosen = options;
        return owner.getStore(NS)
                .getOrComputeIfAbsent(
                        "server", k -> new Holder(started(EmbeddedApiServer.start(chosen), crds)), Holder.class)
                .server();
    }

    private static List<CrdSource> crdSources(EmbeddedApiServerTest settings, ClassLoader loader) {
        List<CrdSource> out = new ArrayList<>();
        ClassLoader resources = loader != null ? loader : EmbeddedApiServerExtension.class.getClassLoader();
        for (String location : settings.crds()) {
            out.add(CrdSource.parse(location, resources));
        }
        if (settings.crdClasses().length > 0) {
            out.add(CrdSource.generatedFrom(settings.crdClasses()));
        }
        return out;
    }

    /** {@code server} with {@code crds} installed and established; closed again when that fails. */
    private static EmbeddedApiServer started(EmbeddedApiServer server, List<CrdSource> crds) {
        if (crds.isEmpty()) {
            return server;
        }
        try {
            CrdInstaller.of(server.client()).install(crds); // the server's shared client, closed with it
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Closes the server when JUnit drops the store. */
    private record Holder(EmbeddedApiServer server) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
        }
    }
}
