package io.kubeloop.client;

/**
 * Options of create, update and updateStatus: {@code dryRun=All}, {@code fieldManager},
 * {@code fieldValidation}. Null means "not sent". Immutable and thread-safe.
 *
 * @param dryRun true to have the server check the write without persisting it ({@code dryRun=All})
 * @param fieldManager the manager name recorded in managedFields, or null
 * @param fieldValidation what the server does with unknown fields, or null for its default (Warn)
 */
public record WriteOptions(boolean dryRun, String fieldManager, FieldValidation fieldValidation) {

    private static final WriteOptions NONE = new WriteOptions(false, null, null);

    /** No options. */
    public static WriteOptions none() {
        return NONE;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().dryRun(dryRun).fieldManager(fieldManager).fieldValidation(fieldValidation);
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private boolean dryRun;
        private String fieldManager;
        private FieldValidation fieldValidation;

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

        public WriteOptions build() {
            return new WriteOptions(dryRun, fieldManager, fieldValidation);
        }
    }
}
