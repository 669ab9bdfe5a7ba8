/**
 * What tests of code built on kubeloop need beyond the fakes each module ships in its own {@code testing}
 * package ({@code io.kubeloop.time.testing.FakeTicker}, {@code io.kubeloop.cache.testing.FakeListerWatcher}):
 * {@link io.kubeloop.testing.junit.EmbeddedApiServerTest}, tests against a real API server;
 * {@link io.kubeloop.testing.crd.CrdInstaller}, CustomResourceDefinitions installed and established;
 * {@link io.kubeloop.testing.faults.FaultInjectingProxy}, faults between the code under test and that server.
 * Use in test scope; the JUnit extension needs JUnit Jupiter, which tests bring.
 */
module io.kubeloop.testing {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.time;
    requires transitive io.kubeloop.apiserver;
    requires static org.junit.jupiter.api;
    // CrdSource.generatedFrom: CRDs written by the codegen's CrdGenerator
    requires io.kubeloop.codegen;

    exports io.kubeloop.testing.junit;
    exports io.kubeloop.testing.crd;
    exports io.kubeloop.testing.faults;
}
