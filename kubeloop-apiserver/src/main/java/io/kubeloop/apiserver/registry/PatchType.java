package io.kubeloop.apiserver.registry;

import java.util.Locale;
import java.util.Optional;

/** PATCH body types by Content-Type. Thread-safe (enum). */
public enum PatchType {
    /** RFC 6902 {@code application/json-patch+json}. */
    JSON("application/json-patch+json"),
    /** RFC 7386 {@code application/merge-patch+json}. */
    MERGE("application/merge-patch+json"),
    /** {@code application/strategic-merge-patch+json} (built-in kinds only). */
    STRATEGIC("application/strategic-merge-patch+json"),
    /** Server-side apply, {@code application/apply-patch+yaml} (also {@code +cbor}). */
    APPLY("application/apply-patch+yaml");

    private final String mediaType;

    PatchType(String mediaType) {
        this.mediaType = mediaType;
    }

    /** The media type. */
    public String mediaType() {
        return mediaType;
    }

    /** The type for a Content-Type header (parameters ignored). */
    public static Optional<PatchType> fromContentType(String contentType) {
        if (contentType == null) {
            return Optional.empty();
        }
        String mt = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        for (PatchType t : values()) {
            if (t.mediaType.equals(mt)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
