package io.kubeloop.apiserver.internal.openapi;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link KubectlOpenApiTest}'s checks against a server that answers {@code /openapi/v3} with 404,
 * so kubectl takes everything (explain, the {@code fieldValidation} probe, client-side apply's
 * patch type and merge keys) from the protobuf {@code /openapi/v2}: the oldest supported kubectl
 * (1.27) and the newest (1.33, which falls back to v2 when v3 fails).
 */
class KubectlOpenApiV2OnlyTest extends KubectlOpenApiTest {

    @Override
    boolean serveV3() {
        return false;
    }

    /** Hides {@link KubectlOpenApiTest#kubectls()}: 1.27 and 1.33 where present, else the same fallback. */
    static Stream<String> kubectls() {
        List<String> found = Stream.of("1.27", "1.33")
                .map(v -> SDK_BIN.resolve("kubectl." + v))
                .filter(Files::isExecutable)
                .map(Path::toString)
                .toList();
        return found.isEmpty() ? KubectlOpenApiTest.kubectls() : found.stream();
    }
}
