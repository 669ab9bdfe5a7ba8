package io.kubeloop.apiserver.internal.registry;

import java.util.List;

/**
 * The list/watch query parameters of one request, validated as {@code ListOptions}.
 *
 * <p>Immutable.
 *
 * @param resourceVersion the {@code resourceVersion} parameter, or null
 * @param resourceVersionMatch {@code Exact}, {@code NotOlderThan}, or null
 * @param limit page size, 0 = all
 * @param continueToken the {@code continue} parameter, or null
 * @param labelSelector the {@code labelSelector} parameter, or null
 * @param fieldSelector the {@code fieldSelector} parameter, or null
 * @param watch whether this is a watch
 * @param allowWatchBookmarks whether bookmarks may be sent
 * @param sendInitialEvents the {@code sendInitialEvents} parameter, or null when absent
 * @param timeoutSeconds the watch's {@code timeoutSeconds}, or null
 */
public record ListParams(
        String resourceVersion,
        String resourceVersionMatch,
        long limit,
        String continueToken,
        String labelSelector,
        String fieldSelector,
        boolean watch,
        boolean allowWatchBookmarks,
        Boolean sendInitialEvents,
        Long timeoutSeconds) {

    /** No parameters: a plain list of everything. */
    public static ListParams none() {
        return new ListParams(null, null, 0, null, null, null, false, false, null, null);
    }

    /** Whether a resourceVersion was given. */
    public boolean hasResourceVersion() {
        return resourceVersion != null && !resourceVersion.isEmpty();
    }

    /**
     * The resourceVersion as a number (0 when absent).
     *
     * @throws io.kubeloop.api.errors.BadRequestException 400 when it is not a number
     */
    public long revision() {
        if (!hasResourceVersion()) {
            return 0;
        }
        try {
            long v = Long.parseLong(resourceVersion);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiErrors.badRequest("invalid resource version: \"" + resourceVersion + "\"");
        }
    }

    /**
     * Checks the combinations the real server rejects.
     *
     * @throws io.kubeloop.api.errors.InvalidException 422 for forbidden combinations
     * @throws io.kubeloop.api.errors.BadRequestException 400 for a continue with a resourceVersion
     */
    public void validate() {
        String kind = "ListOptions";
        String match = resourceVersionMatch == null ? "" : resourceVersionMatch;
        if (!match.isEmpty() && !match.equals("Exact") && !match.equals("NotOlderThan")) {
            throw ApiErrors.invalidOptions(
                    kind,
                    ApiErrors.FieldError.notSupported(
                            "resourceVersionMatch", match, List.of("Exact", "NotOlderThan", "")));
        }
        if (!watch && sendInitialEvents != null) {
            throw ApiErrors.invalidOptions(
                    kind,
                    ApiErrors.FieldError.forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
        }
        if (watch && sendInitialEvents != null) {
            if (!match.equals("NotOlderThan")) {
                throw ApiErrors.invalidOptions(
                        kind,
                        ApiErrors.FieldError.forbidden(
                                "resourceVersionMatch",
                                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
            }
            if (sendInitialEvents && !allowWatchBookmarks) {
                throw ApiErrors.invalidOptions(
                        kind,
                        ApiErrors.FieldError.forbidden(
                                "allowWatchBookmarks",
                                "allowWatchBookmarks must be set to true when sendInitialEvents is set to true"));
            }
            return;
        }
        if (watch && !match.isEmpty()) {
            throw ApiErrors.invalidOptions(
                    kind,
                    ApiErrors.FieldError.forbidden(
                            "resourceVersionMatch",
                            "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
        }
        if (!match.isEmpty() && !hasResourceVersion()) {
            throw ApiErrors.invalidOptions(
                    kind,
                    ApiErrors.FieldError.forbidden(
                            "resourceVersionMatch",
                            "resourceVersionMatch is forbidden unless resourceVersion is provided"));
        }
        if (!match.isEmpty() && continueToken != null && !continueToken.isEmpty()) {
            throw ApiErrors.invalidOptions(
                    kind,
                    ApiErrors.FieldError.forbidden(
                            "resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"));
        }
        if (match.equals("Exact") && "0".equals(resourceVersion)) {
            throw ApiErrors.invalidOptions(
                    kind,
                    ApiErrors.FieldError.forbidden(
                            "resourceVersionMatch",
                            "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
        }
        if (continueToken != null && !continueToken.isEmpty() && hasResourceVersion() && !"0".equals(resourceVersion)) {
            throw ApiErrors.badRequest("specifying resource version is not allowed when using continue");
        }
        if (limit < 0) {
            throw ApiErrors.badRequest("limit must not be negative");
        }
    }
}
