package io.kubeloop.api.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kubeloop.api.internal.KubeJsonModule;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one Jackson configuration kubeloop reads and writes Kubernetes JSON with.
 *
 * <p>Unknown properties are ignored (servers add fields over time), null properties are not written,
 * and {@link java.time.Instant} is written as RFC 3339 text ({@code 2024-01-02T03:04:05Z}, with a
 * fraction only when it has one). Records (user types implementing
 * {@link io.kubeloop.api.KubernetesObject}), {@link io.kubeloop.api.DynamicObject} and fabric8's
 * Jackson-3 model classes all map with it. The mapper is immutable (Jackson 3) and
 * safe to share between threads; derive a variant with {@code mapper().rebuild()}.
 *
 * <p>Reading is Jackson's, made faster where Kubernetes objects spend their time, with the same
 * results: a plain record is built straight from its properties through a constructor handle prepared
 * once per type (records with an any-setter, required or injected components, and reads that make
 * Jackson fail on unknown or missing properties keep Jackson's own path), and timestamps in the UTC
 * form Kubernetes writes are parsed without a {@code DateTimeFormatter}.
 */
public final class KubeJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
            .addModule(new KubeJsonModule())
            .build();

    private KubeJson() {}

    /** The shared, immutable mapper. */
    public static JsonMapper mapper() {
        return MAPPER;
    }
}
