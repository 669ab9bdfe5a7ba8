package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.api.errors.ApiTimeoutException;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.api.errors.Status;
import java.util.List;
import java.util.Map;

/**
 * The Status errors the store raises, worded as the real API server words them.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoreErrors {

    private StoreErrors() {}

    /** 410 for a watch from a compacted revision: {@code too old resource version: N (M)}. */
    public static GoneException tooOldWatch(long requested, long oldest) {
        return new GoneException(
                Status.failure(410, "Expired", "too old resource version: " + requested + " (" + oldest + ")"));
    }

    /** 410 for an exact list at a compacted revision. */
    public static GoneException tooOldList() {
        return new GoneException(
                Status.failure(410, "Expired", "The resourceVersion for the provided list is too old."));
    }

    /** 410 for a continue token whose snapshot is compacted; offers an inconsistent continuation. */
    public static GoneException expiredContinue(String inconsistentContinue) {
        Status s = new Status(
                "Status",
                "v1",
                Map.of("continue", inconsistentContinue),
                Status.FAILURE,
                "The provided continue parameter is too old to display a consistent list result. You can start a new "
                        + "list without the continue parameter, or use the continue token in this response to retrieve "
                        + "the remainder of the results. Continuing with the provided token results in an inconsistent "
                        + "list - objects that were created, modified, or deleted between the time the first chunk was "
                        + "returned and now may show up in the list.",
                "Expired",
                null,
                410);
        return new GoneException(s);
    }

    /** 504 for a read at a revision the store has not reached in time. */
    public static ApiTimeoutException tooLarge(long requested, long current) {
        Status.Details details = new Status.Details(
                null,
                null,
                null,
                null,
                List.of(new Status.Cause("ResourceVersionTooLarge", "Too large resource version", null)),
                1);
        return new ApiTimeoutException(new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                "Timeout: Too large resource version: " + requested + ", current: " + current,
                "Timeout",
                details,
                504));
    }
}
