/**
 * What tests of code built on kubeloop need: {@link io.kubeloop.testing.FakeTicker}, one clock for
 * every timed behaviour; {@link io.kubeloop.testing.FakeListerWatcher}, a scripted source of lists
 * and watches; {@link io.kubeloop.testing.junit.EmbeddedApiServerTest}, tests against a real API
 * server; {@link io.kubeloop.testing.crd.CrdInstaller}, CustomResourceDefinitions installed and
 * established; {@link io.kubeloop.testing.faults.FaultInjectingProxy}, faults between the code under test
 * and that server. Use in test scope; the JUnit extension needs JUnit Jupiter, which tests bring.
 */
module io.kubeloop.testing {
    requires static com.google.errorprone.annotations;
    requires transitive io.kubeloop.time;
    requires transitive io.kubeloop.cache;
    requires transitive io.kubeloop.apiserver;
    requires static org.junit.jupiter.api;
    // CrdSource.generatedFrom calls io.kubeloop.codegen.CrdGenerator by name (these sources are also
    // compiled by kubeloop-apiserver's tests, which kubeloop-codegen's tests depend on)
    requires io.kubeloop.codegen;

    exports io.kubeloop.testing;
    exports io.kubeloop.testing.junit;
    exports io.kubeloop.testing.crd;
    exports io.kubeloop.testing.faults;
}
