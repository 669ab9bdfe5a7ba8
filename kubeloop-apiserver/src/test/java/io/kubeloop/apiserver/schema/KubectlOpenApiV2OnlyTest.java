package io.kubeloop.apiserver.schema;

class KubectlOpenApiV2OnlyTest extends KubectlOpenApiTest {
    @Override
    boolean serveV3() {
        return false;
    }
}
