package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.client.FieldValidation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Per-request parameters of a write, and the warnings it produced (sent as {@code Warning: 299} headers).
 *
 * <p><b>Thread safety.</b> Not thread-safe: one request, one thread.
 */
public final class WriteContext {

    private final String fieldManager;
    private final String userAgent;
    private final boolean dryRun;
    private final FieldValidation fieldValidation;
    private final boolean force;
    private final List<String> warnings = new ArrayList<>();
    private List<String> duplicateFields = List.of();
    private ObjectAdmission admission = ObjectAdmission.NONE;
    private ObjectMutation mutation = ObjectMutation.NONE;
    private boolean admitsOutsideLock;

    /**
     * @param fieldManager the {@code fieldManager} parameter, or null
     * @param userAgent the User-Agent header, or null
     * @param dryRun {@code dryRun=All}
     * @param fieldValidation the {@code fieldValidation} parameter
     * @param force the {@code force} parameter (server-side apply)
     */
    public WriteContext(
            String fieldManager, String userAgent, boolean dryRun, FieldValidation fieldValidation, boolean force) {
        this.fieldManager = fieldManager;
        this.userAgent = userAgent;
        this.dryRun = dryRun;
        this.fieldValidation = fieldValidation;
        this.force = force;
    }

    /**
     * Sets the check every object this request writes must pass after validation, before it is stored (the
     * requester's RBAC escalation check, for example).
     */
    public WriteContext admission(ObjectAdmission admission) {
        this.admission = Objects.requireNonNull(admission, "admission");
        return this;
    }

    /**
     * Sets the change every object this request writes goes through before validation (mutating
     * admission webhooks).
     */
    public WriteContext mutation(ObjectMutation mutation) {
        this.mutation = Objects.requireNonNull(mutation, "mutation");
        return this;
    }

    /** The request's mutation ({@link ObjectMutation#NONE} unless one was set). */
    public ObjectMutation mutation() {
        return mutation;
    }

    /**
     * Makes updates and patches run their mutation and admission with no store lock held (they call
     * webhooks), committing optimistically: see {@link ObjectMutation}.
     */
    public WriteContext admitOutsideLock() {
        this.admitsOutsideLock = true;
        return this;
    }

    /** Whether {@link #admitOutsideLock()} was asked for. */
    public boolean admitsOutsideLock() {
        return admitsOutsideLock;
    }

    /** The request's admission check ({@link ObjectAdmission#NONE} unless one was set). */
    public ObjectAdmission admission() {
        return admission;
    }

    /** Defaults: no manager, no dry run, Warn. */
    public static WriteContext defaults() {
        return new WriteContext(null, null, false, FieldValidation.WARN, false);
    }

    /** The explicit field manager, or null. */
    public String fieldManager() {
        return fieldManager;
    }

    /**
     * The manager an Update is recorded for: {@code fieldManager}, else what the real server derives from the
     * User-Agent (the part before the first {@code /}, non-printable characters dropped, cut to 128 UTF-8
     * bytes), else {@code unknown}.
     */
    public String updateManager() {
        if (fieldManager != null && !fieldManager.isEmpty()) {
            return fieldManager;
        }
        String prefix = userAgent == null ? "" : userAgent.split("/", 2)[0];
        StringBuilder b = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < prefix.length(); ) {
            int cp = prefix.codePointAt(i);
            i += Character.charCount(cp);
            if (!goPrintable(cp)) {
                continue;
            }
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + len > MAX_MANAGER_BYTES) {
                break;
            }
            bytes += len;
            b.appendCodePoint(cp);
        }
        return b.isEmpty() ? "unknown" : b.toString();
    }

    /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean goPrintable(int cp) {
        return cp == ' '
                || switch (Character.getType(cp)) {
                    case Character.UPPERCASE_LETTER,
                            Character.LOWERCASE_LETTER,
                            Character.TITLECASE_LETTER,
                            Character.MODIFIER_LETTER,
                            Character.OTHER_LETTER,
                            Character.NON_SPACING_MARK,
                            Character.ENCLOSING_MARK,
                            Character.COMBINING_SPACING_MARK,
                            Character.DECIMAL_DIGIT_NUMBER,
                            Character.LETTER_NUMBER,
                            Character.OTHER_NUMBER,
                            Character.CONNECTOR_PUNCTUATION,
                            Character.DASH_PUNCTUATION,
                            Character.START_PUNCTUATION,
                            Character.END_PUNCTUATION,
                            Character.INITIAL_QUOTE_PUNCTUATION,
                            Character.FINAL_QUOTE_PUNCTUATION,
                            Character.OTHER_PUNCTUATION,
                            Character.MATH_SYMBOL,
                            Character.CURRENCY_SYMBOL,
                            Character.MODIFIER_SYMBOL,
                            Character.OTHER_SYMBOL -> true;
                    default -> false;
                };
    }

    /** apimachinery's {@code FieldManagerMaxLength}. */
    private static final int MAX_MANAGER_BYTES = 128;

    /**
     * Records the fields that occur twice in one JSON object of the request body ({@code spec.replicas}), found
     * on the raw bytes before decoding; {@code fieldValidation} reports them with the unknown fields.
     */
    public void duplicateFields(List<String> paths) {
        duplicateFields = List.copyOf(paths);
    }

    /** The duplicate fields of the request body (empty unless {@link #duplicateFields(List)} recorded some). */
    public List<String> duplicateFields() {
        return duplicateFields;
    }

    /** {@code dryRun=All}. */
    public boolean dryRun() {
        return dryRun;
    }

    /** The field validation mode. */
    public FieldValidation fieldValidation() {
        return fieldValidation;
    }

    /** The {@code force} parameter. */
    public boolean force() {
        return force;
    }

    /** Adds a warning for the response. */
    public void warn(String warning) {
        warnings.add(warning);
    }

    /** The warnings so far. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
