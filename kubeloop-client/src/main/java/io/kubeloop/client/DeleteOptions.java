package io.kubeloop.client;

/**
 * Options of delete and deleteCollection, sent as a {@code DeleteOptions} JSON body as client-go
 * and kubectl do (preconditions can only travel in the body). Null means "not set".
 * Immutable and thread-safe.
 *
 * @param propagationPolicy what happens to dependents, or null for the resource's default
 * @param gracePeriodSeconds seconds before the object is deleted (0 = at once), or null for its default
 * @param preconditionUid delete only if the object still has this uid (else 409), or null
 * @param preconditionResourceVersion delete only if the object still has this resourceVersion, or null
 * @param dryRun true for {@code dryRun: ["All"]}
 */
public record DeleteOptions(
        PropagationPolicy propagationPolicy,
        Long gracePeriodSeconds,
        String preconditionUid,
        String preconditionResourceVersion,
        boolean dryRun) {

    private static final DeleteOptions NONE = new DeleteOptions(null, null, null, null, false);

    public DeleteOptions {
        if (gracePeriodSeconds != null && gracePeriodSeconds < 0) {
            throw new IllegalArgumentException("gracePeriodSeconds must not be negative, got " + gracePeriodSeconds);
        }
    }

    /** No options: the server's defaults. */
    public static DeleteOptions none() {
        return NONE;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .propagationPolicy(propagationPolicy)
                .gracePeriodSeconds(gracePeriodSeconds)
                .preconditionUid(preconditionUid)
                .preconditionResourceVersion(preconditionResourceVersion)
                .dryRun(dryRun);
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private PropagationPolicy propagationPolicy;
        private Long gracePeriodSeconds;
        private String preconditionUid;
        private String preconditionResourceVersion;
        private boolean dryRun;

        private Builder() {}

        public Builder propagationPolicy(PropagationPolicy policy) {
            this.propagationPolicy = policy;
            return this;
        }

        public Builder gracePeriodSeconds(Long seconds) {
            this.gracePeriodSeconds = seconds;
            return this;
        }

        public Builder preconditionUid(String uid) {
            this.preconditionUid = uid;
            return this;
        }

        public Builder preconditionResourceVersion(String resourceVersion) {
            this.preconditionResourceVersion = resourceVersion;
            return this;
        }

        public Builder dryRun(boolean dryRun) {
            this.dryRun = dryRun;
            return this;
        }

        public DeleteOptions build() {
            return new DeleteOptions(
                    propagationPolicy, gracePeriodSeconds, preconditionUid, preconditionResourceVersion, dryRun);
        }
    }
}
