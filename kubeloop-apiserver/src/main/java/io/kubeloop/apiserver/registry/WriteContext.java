package io.kubeloop.apiserver.registry;

import java.util.ArrayList;
import java.util.List;

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

    /**
     * @param fieldManager the {@code fieldManager} parameter, or null
     * @param userAgent the User-Agent header, or null
     * @param dryRun {@code dryRun=All}
     * @param fieldValidation the {@code fieldValidation} parameter
     * @param force the {@code force} parameter (server-side apply)
     */
    public WriteContext(String fieldManager, String userAgent, boolean dryRun, FieldValidation fieldValidation,
                        boolean force) {
        this.fieldManager = fieldManager;
        this.userAgent = userAgent;
        this.dryRun = dryRun;
        this.fieldValidation = fieldValidation;
        this.force = force;
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
     * The manager an Update is recorded for: {@code fieldManager}, else the User-Agent up to the first
     * {@code /} (as the real server), else {@code unknown}.
     */
    public String updateManager() {
        if (fieldManager != null && !fieldManager.isEmpty()) {
            return fieldManager;
        }
        if (userAgent != null && !userAgent.isBlank()) {
            int slash = userAgent.indexOf('/');
            return slash < 0 ? userAgent : userAgent.substring(0, slash);
        }
        return "unknown";
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
