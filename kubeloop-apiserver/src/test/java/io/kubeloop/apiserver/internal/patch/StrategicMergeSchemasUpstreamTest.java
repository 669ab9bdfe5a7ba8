package io.kubeloop.apiserver.internal.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The merge facts of every built-in kind's strategic-merge schema — merge strategy, merge key,
 * {@code retainKeys}, list type and keys, atomic objects and maps — agree with the
 * {@code x-kubernetes-patch-*}, {@code x-kubernetes-list-*} and {@code x-kubernetes-map-type} extensions of
 * the release's own OpenAPI for the same field, which Kubernetes generates from the same Go tags the real
 * server merges by.
 */
class StrategicMergeSchemasUpstreamTest {

    @Test
    void everyDeclaredFieldMergesAsTheReleasesOpenApiSays() {
        List<String> disagreements = new ArrayList<>();
        int checked = 0;
        for (GroupVersionKind gvk : StrategicMergeSchemas.kinds()) {
            StructuralSchema upstream = BuiltinSchemas.forKind(gvk).orElseThrow(() -> new AssertionError(gvk + ""));
            checked += compare(gvk.kind(), StrategicMergeSchemas.forKind(gvk).orElseThrow(), upstream, disagreements);
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(disagreements).isEmpty();
    }

    /** Compares the fields {@code smp} declares, under {@code path}; returns how many fields it compared. */
    private static int compare(String path, StrategicMergeSchema smp, StructuralSchema upstream, List<String> out) {
        int checked = 0;
        for (Map.Entry<String, StrategicMergeSchema> f : smp.fields().entrySet()) {
            String at = path + "." + f.getKey();
            StructuralSchema field = upstream.properties().get(f.getKey());
            if (field == null) {
                out.add(at + ": not in the release's OpenAPI");
                continue;
            }
            checked++;
            StrategicMergeSchema s = f.getValue();
            Optional<StructuralSchema> items = field.items();
            List<String> strategy = List.of(field.patchStrategy().split(","));
            check(out, at, "merge strategy", s.mergeList(), strategy.contains("merge"));
            check(out, at, "retainKeys", s.retainKeys(), strategy.contains("retainKeys"));
            if (s.mergeList()) {
                check(out, at, "merge key", s.patchMergeKey(), field.patchMergeKey());
            }
            if (items.isPresent()) {
                String listType = field.listType().isEmpty() ? "atomic" : field.listType();
                check(out, at, "list type", s.listType().name().toLowerCase(Locale.ROOT), listType);
                if (listType.equals("map")) {
                    check(
                            out,
                            at,
                            "list-map keys",
                            s.listMapKeys(),
                            field.listMapKeys().stream().sorted().toList());
                }
                StructuralSchema item = items.get();
                if (!item.properties().isEmpty()) {
                    check(out, at, "atomic items", s.atomic(), item.mapType().equals("atomic"));
                    checked += compare(at + "[]", s, item, out);
                }
            } else if (field.additionalProperties().isPresent()) {
                check(out, at, "map", s.isMap(), true);
                check(out, at, "atomic map", s.atomic(), field.mapType().equals("atomic"));
            } else if (!field.properties().isEmpty()) {
                check(out, at, "atomic struct", s.atomic(), field.mapType().equals("atomic"));
                checked += compare(at, s, field, out);
            }
        }
        return checked;
    }

    private static void check(List<String> out, String at, String what, Object table, Object upstream) {
        if (!table.equals(upstream)) {
            out.add(at + ": " + what + " is " + table + " here, " + upstream + " upstream");
        }
    }
}
