package io.kubeloop.apiserver.internal.storage;

import io.kubeloop.api.errors.BadRequestException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;

/**
 * The opaque {@code continue} token of a paged list: base64url of
 * {@code {"v":"meta.k8s.io/v1","rv":<snapshot revision>,"start":"<next key>"}} (the real server's shape).
 * A revision of 0 means "the latest state" (the inconsistent continuation offered after a 410).
 *
 * <p>Immutable.
 *
 * @param resourceVersion the snapshot revision all pages share
 * @param startKey the first key of the next page
 */
public record ContinueToken(long resourceVersion, String startKey) {

    /** The token text. */
    public String encode() {
        String json = "{\"v\":\"meta.k8s.io/v1\",\"rv\":" + resourceVersion + ",\"start\":"
                + KubeJson.mapper().writeValueAsString(startKey) + "}";
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Parses a token.
     *
     * @throws BadRequestException (400) for anything that is not a token this server issued
     */
    public static ContinueToken decode(String token) {
        try {
            byte[] raw = Base64.getUrlDecoder()
                    .decode(token.replace('+', '-').replace('/', '_').replace("=", ""));
            JsonNode n = KubeJson.mapper().readTree(raw);
            if (n == null
                    || !n.isObject()
                    || !"meta.k8s.io/v1".equals(n.path("v").asString(""))
                    || !n.path("rv").isIntegralNumber()
                    || !n.path("start").isString()) {
                throw new IllegalArgumentException("unexpected content");
            }
            long rv = n.get("rv").asLong();
            if (rv < 0) {
                throw new IllegalArgumentException("negative revision");
            }
            return new ContinueToken(rv, n.get("start").asString());
        } catch (RuntimeException e) {
            throw new BadRequestException(
                    Status.failure(400, "BadRequest", "invalid continue token: " + oneLine(e.getMessage())));
        }
    }

    private static String oneLine(String s) {
        return s == null ? "malformed" : s.lines().findFirst().orElse("malformed");
    }
}
