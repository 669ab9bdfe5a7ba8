package io.kubeloop.client;

import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import org.junit.jupiter.api.Assumptions;

/**
 * Until kubeloop-api's ApiExceptions mapping is merged (it is a stub that throws
 * UnsupportedOperationException on this branch), tests of typed errors skip themselves.
 */
final class ApiErrors {

    private ApiErrors() {
    }

    static void assumeMapped() {
        boolean mapped;
        try {
            ApiExceptions.from(Status.failure(404, "NotFound", "x"));
            mapped = true;
        } catch (UnsupportedOperationException e) {
            mapped = false;
        }
        Assumptions.assumeTrue(mapped, "ApiExceptions is still a stub on this branch");
    }
}
