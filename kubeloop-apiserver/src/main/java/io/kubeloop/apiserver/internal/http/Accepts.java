package io.kubeloop.apiserver.internal.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a request's {@code Accept} header asks for, negotiated as kube-apiserver negotiates it for a
 * resource URL: the ranges are ordered by {@code q} and then specificity, exactly as kube-apiserver's
 * Accept parser orders them, and the first range this JSON-only server can produce wins. A range can be
 * produced when its media type is {@code application/json}, {@code application/*} or {@code *}{@code /*},
 * its {@code stream} parameter (if any) is {@code watch}, and it either names no transformation or
 * names one of {@code Table}, {@code PartialObjectMetadata}, {@code PartialObjectMetadataList} with
 * {@code g=meta.k8s.io} and {@code v=v1} or {@code v1beta1} (an {@code as}, {@code g} or {@code v} alone
 * is a transformation that cannot be produced). Whether the chosen form fits the request (one object
 * or a list) is decided later, as kube-apiserver does it when it transforms the answer.
 *
 * <p>Aggregated discovery is read apart: any range asking for {@code APIGroupDiscoveryList}.
 *
 * <p>A header without parameters (no {@code ;}) is only scanned for a JSON range; nothing else is
 * parsed for it.
 *
 * <p>Immutable.
 *
 * @param target the chosen form of a resource answer, or null when no range can be produced (406)
 * @param targetVersion {@code v1} or {@code v1beta1} for a {@code meta.k8s.io} form, null for
 *        {@link Target#OBJECT}
 * @param aggregatedDiscovery {@code APIGroupDiscoveryList} is acceptable ({@code v2}, or {@code v2beta1})
 * @param aggregatedVersion {@code v2} or {@code v2beta1}
 */
record Accepts(Target target, String targetVersion, boolean aggregatedDiscovery, String aggregatedVersion) {

    /** The form of a resource answer. */
    enum Target {
        /** The resource's own kind (or its list kind). */
        OBJECT,
        /** A {@code meta.k8s.io} Table. */
        TABLE,
        /** {@code meta.k8s.io} PartialObjectMetadata: kind, apiVersion and the object's whole metadata. */
        PARTIAL_OBJECT_METADATA,
        /** {@code meta.k8s.io} PartialObjectMetadataList: list metadata and one PartialObjectMetadata per item. */
        PARTIAL_OBJECT_METADATA_LIST
    }

    private static final Accepts PLAIN = new Accepts(Target.OBJECT, null, false, null);
    private static final Accepts NONE = new Accepts(null, null, false, null);
    private static final String META_GROUP = "meta.k8s.io";

    /** True when some range can be produced for a resource URL. */
    boolean acceptable() {
        return target != null;
    }

    /** True when a {@code meta.k8s.io} Table was chosen. */
    boolean table() {
        return target == Target.TABLE;
    }

    /** The {@code apiVersion} of the chosen {@code meta.k8s.io} form, e.g. {@code meta.k8s.io/v1}. */
    String targetApiVersion() {
        return META_GROUP + "/" + targetVersion;
    }

    static Accepts parse(String header) {
        if (header == null || header.isBlank()) {
            return PLAIN;
        }
        if (header.indexOf(';') < 0) {
            for (String range : header.split(",")) {
                if (jsonType(range.strip().toLowerCase(Locale.ROOT))) {
                    return PLAIN;
                }
            }
            return NONE;
        }
        List<Range> ranges = new ArrayList<>();
        boolean agg = false;
        String aggVersion = null;
        for (String part : header.split(",")) {
            Range r = Range.parse(part);
            if (r == null) {
                continue;
            }
            ranges.add(r);
            String as = r.param("as");
            String v = r.param("v");
            if (jsonType(r.mediaType())
                    && "APIGroupDiscoveryList".equals(as)
                    && "apidiscovery.k8s.io".equals(r.param("g"))
                    && ("v2".equals(v) || "v2beta1".equals(v))) {
                if (!agg) {
                    aggVersion = v;
                }
                agg = true;
            }
        }
        sort(ranges);
        for (Range r : ranges) {
            if (!jsonType(r.mediaType())) {
                continue;
            }
            String stream = r.param("stream");
            if (stream != null && !stream.isEmpty() && !stream.equals("watch")) {
                continue;
            }
            String as = r.param("as");
            String g = r.param("g");
            String v = r.param("v");
            if (as == null && g == null && v == null) {
                return new Accepts(Target.OBJECT, null, agg, aggVersion);
            }
            if (!META_GROUP.equals(g) || !("v1".equals(v) || "v1beta1".equals(v))) {
                continue;
            }
            Target t = switch (as == null ? "" : as) {
                case "Table" -> Target.TABLE;
                case "PartialObjectMetadata" -> Target.PARTIAL_OBJECT_METADATA;
                case "PartialObjectMetadataList" -> Target.PARTIAL_OBJECT_METADATA_LIST;
                default -> null;
            };
            if (t != null) {
                return new Accepts(t, v, agg, aggVersion);
            }
        }
        return new Accepts(null, null, agg, aggVersion);
    }

    private static boolean jsonType(String mediaType) {
        return mediaType.equals("application/json") || mediaType.equals("*/*") || mediaType.equals("application/*");
    }

    /**
     * Orders ranges as kube-apiserver's Accept parser does: an insertion sort in which a range goes
     * before another when its {@code q} is higher, or its type is concrete and the other's is {@code *},
     * or its subtype is concrete and the other's is {@code *}.
     */
    private static void sort(List<Range> ranges) {
        for (int i = 1; i < ranges.size(); i++) {
            for (int j = i; j > 0 && before(ranges.get(j), ranges.get(j - 1)); j--) {
                Range t = ranges.get(j);
                ranges.set(j, ranges.get(j - 1));
                ranges.set(j - 1, t);
            }
        }
    }

    private static boolean before(Range a, Range b) {
        return a.q() > b.q()
                || !a.type().equals("*") && b.type().equals("*")
                || !a.subtype().equals("*") && b.subtype().equals("*");
    }

    /** One media range: lower-cased type and subtype, its {@code q}, and its other parameters (the last of a name wins). */
    private record Range(String type, String subtype, double q, Map<String, String> params) {

        /** The range, or null when it has no {@code type/subtype} (a lone {@code *} is {@code *}{@code /*}). */
        static Range parse(String text) {
            String[] parts = text.split(";");
            String mediaRange = parts[0].strip().toLowerCase(Locale.ROOT);
            int slash = mediaRange.indexOf('/');
            String type;
            String subtype;
            if (slash < 0 && mediaRange.equals("*")) {
                type = "*";
                subtype = "*";
            } else if (slash > 0 && mediaRange.indexOf('/', slash + 1) < 0) {
                type = mediaRange.substring(0, slash).strip();
                subtype = mediaRange.substring(slash + 1).strip();
            } else {
                return null;
            }
            double q = 1.0;
            Map<String, String> params = new HashMap<>();
            for (int i = 1; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String name = parts[i].substring(0, eq).strip();
                String value = parts[i].substring(eq + 1).strip().replace("\"", "");
                if (name.equals("q")) {
                    try {
                        q = Double.parseDouble(value);
                    } catch (NumberFormatException e) {
                        q = 0;
                    }
                } else {
                    params.put(name, value);
                }
            }
            return new Range(type, subtype, q, params);
        }

        String mediaType() {
            return type + "/" + subtype;
        }

        /** The value of parameter {@code name}, or null. */
        String param(String name) {
            return params.get(name);
        }
    }
}
