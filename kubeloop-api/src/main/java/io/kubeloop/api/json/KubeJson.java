package io.kubeloop.api.json;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.cfg.DateTimeFeature;

/**
 * The one Jackson configuration kubeloop reads and writes Kubernetes JSON with.
 *
 * <p>Unknown properties are ignored (servers add fields over time), nulls are not written, and
 * {@link java.time.Instant} is written as RFC 3339 text. The mapper is immutable (Jackson 3) and
 * safe to share between threads; derive a variant with {@code mapper().rebuild()}.
 */
public final class KubeJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private KubeJson() {
    }

    /** The shared, immutable mapper. */
    public static JsonMapper mapper() {
        return MAPPER;
    }
}
