package io.kubeloop.apiserver.internal.cel;

import io.kubeloop.api.errors.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The limits kube-apiserver puts on the <em>estimated</em> cost of a CRD's validation rules when the CRD
 * is created or updated, and the messages it refuses them with: one rule (its estimate times the most
 * times its node can occur in an object) may cost at most {@value #PER_EXPRESSION} units, and all rules
 * of one version's schema together at most {@value #PER_SCHEMA}; past the latter, the four costliest rules
 * (each at least 1% of the limit) are named too.
 *
 * <p>Not thread-safe: one per schema compilation.
 */
final class CostLimits {

    /** The most one expression may be estimated to cost. */
    static final long PER_EXPRESSION = 10_000_000;
    /** The most all expressions of one schema may be estimated to cost together. */
    static final long PER_SCHEMA = 100_000_000;

    private static final String ADVICE = " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength"
            + " where arrays, maps, and strings are declared)";

    private record Contribution(String field, long cost) {}

    private long total;
    private final List<Contribution> costliest = new ArrayList<>();

    /**
     * How often a node whose values serialize to at least {@code minSerializedSize} bytes can occur in
     * one request: the bound used when a list or map above it has no {@code maxItems} /
     * {@code maxProperties}.
     */
    static long cardinality(long minSerializedSize) {
        return ValueSizes.MAX_REQUEST_BYTES / (minSerializedSize + 1);
    }

    /** A rule's cost times the cardinality of its node, saturating. */
    static long scaled(long cost, long cardinality) {
        return cost == 0 ? 0 : Estimate.multiply(cost, cardinality);
    }

    /** The cause refusing an expression over {@link #PER_EXPRESSION}, or null within it. */
    static Status.Cause perExpression(String field, String costName, long cost) {
        if (Long.compareUnsigned(cost, PER_EXPRESSION) <= 0) {
            return null;
        }
        return CelRules.cause("FieldValueForbidden", field, "Forbidden: " + exceeds(costName, cost, PER_EXPRESSION));
    }

    /** Adds an expression's cost to the schema's total. */
    void observe(String field, long cost) {
        total = Estimate.add(total, cost);
        if (Long.compareUnsigned(cost, PER_SCHEMA / 100) < 0) {
            return;
        }
        costliest.add(new Contribution(field, cost));
        costliest.sort(
                Comparator.comparing(Contribution::cost, Long::compareUnsigned).reversed());
        if (costliest.size() > 4) {
            costliest.removeLast();
        }
    }

    /** The causes refusing a schema whose total is over {@link #PER_SCHEMA}; empty within it. */
    List<Status.Cause> totalCauses(String schemaPath) {
        if (Long.compareUnsigned(total, PER_SCHEMA) <= 0) {
            return List.of();
        }
        List<Status.Cause> out = new ArrayList<>();
        for (Contribution c : costliest) {
            out.add(CelRules.cause(
                    "FieldValueForbidden",
                    c.field(),
                    "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire"
                            + " OpenAPIv3 schema"));
        }
        out.add(CelRules.cause(
                "FieldValueForbidden",
                schemaPath,
                "Forbidden: "
                        + exceeds(
                                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                                total,
                                PER_SCHEMA)));
        return out;
    }

    /** kube-apiserver's wording: {@code <what> exceeds budget by factor of 2.5x (try ...)}. */
    static String exceeds(String what, long cost, long limit) {
        double factor = Estimate.toDouble(cost) / limit;
        String shown;
        if (factor > 100.0) {
            shown = "more than 100x";
        } else if (factor < 1.5) {
            shown = String.format(Locale.ROOT, "%fx", factor);
        } else {
            shown = String.format(Locale.ROOT, "%.1fx", factor);
        }
        return what + " exceeds budget by factor of " + shown + ADVICE;
    }
}
