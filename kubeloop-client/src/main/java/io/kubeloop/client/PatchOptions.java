package io.kubeloop.client;

/**
 * Options of patch: {@code dryRun=All}, {@code fieldManager} (required for {@link PatchType#APPLY}),
 * {@code fieldValidation}, and {@code force} (apply only: take over fields other managers own).
 * Null means "not sent". Immutable and thread-safe.
 *
 * @param dryRun true for {@code dryRun=All}
 * @param fieldManager the manager name, or null
 * @param fieldValidation what the server does with unknown fields, or null
 * @param force for apply patches: resolve conflicts in this manager's favour; null = not sent
 */
public record PatchOptions(boolean dryRun, String fieldManager, FieldValidation fieldValidation, Boolean force) {

    private static final PatchOptions NONE = new PatchOptions(false, null, null, null);

    /** No options. */
    public static PatchOptions none() {
        return NONE;
    }

    /**
     * Options for a server-side apply by {@code fieldManager} that fails on conflicts with other
     * managers (no {@code force} sent: the server's default, false).
     *
     * @param fieldManager the manager name
     * @return the options
     */
    public static PatchOptions apply(String fieldManager) {
        return new PatchOptions(false, fieldManager, null, null);
    }

    /**
     * Options for a server-side apply by {@code fieldManager} that takes over the fields other
     * managers own ({@code force=true}), as a controller applying its desired state does.
     *
     * @param fieldManager the manager name
     * @return the options
     */
    public static PatchOptions forceApply(String fieldManager) {
        return new PatchOptions(false, fieldManager, null, Boolean.TRUE);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .dryRun(dryRun)
                .fieldManager(fieldManager)
                .fieldValidation(fieldValidation)
                .force(force);
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private boolean dryRun;
        private String fieldManager;
        private FieldValidation fieldValidation;
        private Boolean force;

        private Builder() {}

        public Builder dryRun(boolean dryRun) {
            this.dryRun = dryRun;
            return this;
        }

        public Builder fieldManager(String fieldManager) {
            this.fieldManager = fieldManager;
            return this;
        }

        public Builder fieldValidation(FieldValidation fieldValidation) {
            this.fieldValidation = fieldValidation;
            return this;
        }

        public Builder force(Boolean force) {
            this.force = force;
            return this;
        }

        public PatchOptions build() {
            return new PatchOptions(dryRun, fieldManager, fieldValidation, force);
        }
    }
}
