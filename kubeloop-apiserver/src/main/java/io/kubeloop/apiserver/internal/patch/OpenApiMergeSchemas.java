package io.kubeloop.apiserver.internal.patch;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link StrategicMergeSchema} of a built-in kind read from the release's own OpenAPI
 * ({@link BuiltinSchemas}), for the kinds {@link StrategicMergeSchemas} has no hand-written schema of:
 * {@code x-kubernetes-patch-strategy} ({@code merge}, {@code retainKeys}) and
 * {@code x-kubernetes-patch-merge-key} give how strategic merge patch merges a list;
 * {@code x-kubernetes-list-type} and {@code x-kubernetes-list-map-keys} how server-side apply owns it;
 * {@code x-kubernetes-map-type: atomic} an atomic struct or map; {@code additionalProperties} a map whose
 * keys are data. {@code metadata} is {@link StrategicMergeSchemas#objectMeta()}. What OpenAPI does not
 * say — which Go fields are always serialized, the defaults of list-map keys — stays unset, as for a
 * field without tags. Recursive types are cut at {@value #MAX_DEPTH} levels, past which a field merges as
 * one without tags.
 *
 * <p>Thread-safe: the schemas are built once, on first use, and immutable.
 */
final class OpenApiMergeSchemas {

    /** How deep a kind's schema is followed. */
    static final int MAX_DEPTH = 16;

    private OpenApiMergeSchemas() {}

    /** Built on first use, for every built-in kind without a hand-written schema; immutable afterwards. */
    private static final class Holder {
        private static final Map<GroupVersionKind, StrategicMergeSchema> SCHEMAS = build();
    }

    /** The schema of a built-in kind the release's OpenAPI defines, or empty. */
    static Optional<StrategicMergeSchema> forKind(GroupVersionKind gvk) {
        return Optional.ofNullable(Holder.SCHEMAS.get(gvk));
    }

    private static Map<GroupVersionKind, StrategicMergeSchema> build() {
        Map<GroupVersionKind, StrategicMergeSchema> out = new HashMap<>();
        for (GroupVersionKind gvk : BuiltinSchemas.standard().kinds()) {
            if (!gvk.kind().endsWith("List") && !StrategicMergeSchemas.kinds().contains(gvk)) {
                BuiltinSchemas.forKind(gvk).ifPresent(s -> out.put(gvk, kind(s)));
            }
        }
        return Map.copyOf(out);
    }

    private static StrategicMergeSchema kind(StructuralSchema schema) {
        StrategicMergeSchema.Builder b = StrategicMergeSchema.builder();
        schema.properties()
                .forEach((name, field) ->
                        b.field(name, name.equals("metadata") ? StrategicMergeSchemas.objectMeta() : node(field, 1)));
        return b.build();
    }

    private static StrategicMergeSchema node(StructuralSchema s, int depth) {
        if (depth > MAX_DEPTH) {
            return StrategicMergeSchema.EMPTY;
        }
        StrategicMergeSchema.Builder b = StrategicMergeSchema.builder();
        List<String> strategy = List.of(s.patchStrategy().split(","));
        if (strategy.contains("retainKeys")) {
            b.retainKeys();
        }
        Optional<StructuralSchema> items = s.items();
        if (items.isPresent()) {
            if (strategy.contains("merge")) {
                b.mergeBy(s.patchMergeKey());
            }
            switch (s.listType()) {
                case "map" -> b.listMap(s.listMapKeys().toArray(String[]::new));
                case "set" -> b.listSet();
                default -> {}
            }
            StructuralSchema item = items.get();
            if (!item.properties().isEmpty()) {
                b.fieldsOf(node(item, depth + 1));
            }
            if (item.mapType().equals("atomic")) {
                b.atomic();
            }
        } else if (s.additionalProperties().isPresent()) {
            b.mapOf(node(s.additionalProperties().get(), depth + 1));
        } else {
            s.properties().forEach((name, field) -> b.field(name, node(field, depth + 1)));
        }
        if (items.isEmpty() && s.mapType().equals("atomic")) {
            b.atomic();
        }
        return b.build();
    }
}
