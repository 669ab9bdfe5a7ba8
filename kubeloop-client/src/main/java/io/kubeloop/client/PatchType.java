package io.kubeloop.client;

/** The four patch formats of the Kubernetes API, each with its request Content-Type. */
public enum PatchType {
    /** RFC 6902 JSON Patch: a list of operations. */
    JSON_PATCH("application/json-patch+json"),
    /** RFC 7386 JSON Merge Patch: {@code null} deletes a key, arrays are replaced. */
    MERGE("application/merge-patch+json"),
    /** Strategic merge patch: lists merged by their Go-type merge keys; built-in kinds only (CRs answer 415). */
    STRATEGIC_MERGE("application/strategic-merge-patch+json"),
    /** Server-side apply: needs {@link PatchOptions#fieldManager()}; may use {@link PatchOptions#force()}. */
    APPLY("application/apply-patch+yaml");

    private final String contentType;

    PatchType(String contentType) {
        this.contentType = contentType;
    }

    /** The Content-Type header value. */
    public String contentType() {
        return contentType;
    }
}
