package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import io.kubeloop.apiserver.internal.cel.ExpressionSizes.AstNode;
import io.kubeloop.apiserver.internal.cel.ExpressionSizes.EntrySize;
import java.util.List;

/**
 * The per-function cost tables of {@link CostEstimator}: the cost, and where it is known the result's size,
 * of one overload of a call whose target and arguments have been estimated — CEL's standard functions, the
 * sets extension, and Kubernetes' libraries and the strings extension — as kube-apiserver estimates them.
 *
 * <p>Invariant: the costs include the arguments' costs (passed in) but not the target's, which the walk
 * adds. Reads sizes from, and records entry sizes of conditional and concatenation results in, the
 * estimate's {@link ExpressionSizes}. One instance per estimate; not thread-safe.
 */
final class FunctionCosts {

    private static final double STRING_TRAVERSAL = 0.1;
    private static final double REGEX_STRING_LENGTH = 0.25;
    private static final Estimate ONE = Estimate.fixed(1);

    private final ExpressionSizes sizes;

    FunctionCosts(ExpressionSizes sizes) {
        this.sizes = sizes;
    }

    /** A call's cost and, for strings, bytes, lists and maps, its result's size. */
    record CallEstimate(Estimate cost, Estimate resultSize) {}

    /** The cost of {@code overload} of {@code function} called at {@code e}. */
    CallEstimate cost(
            CelExpr e, String function, String overload, AstNode target, List<AstNode> args, List<Estimate> argCosts) {
        Estimate argSum = Estimate.ZERO;
        for (Estimate a : argCosts) {
            argSum = argSum.add(a);
        }
        CallEstimate ext = extensionCost(overload, args);
        if (ext == null) {
            ext = kubernetesCost(function, overload, target, args);
        }
        if (ext != null) {
            return new CallEstimate(ext.cost().add(argSum), ext.resultSize());
        }
        switch (overload) {
            case "string_format" -> {
                if (target != null) {
                    return new CallEstimate(
                            sizeOrUnknown(target)
                                    .multiplyByFactor(STRING_TRAVERSAL)
                                    .add(argSum),
                            null);
                }
            }
            case "string_to_bytes" -> {
                if (args.size() == 1) {
                    Estimate sz = sizeOrUnknown(args.get(0));
                    return new CallEstimate(
                            sz.multiplyByFactor(STRING_TRAVERSAL).add(argSum),
                            new Estimate(sz.min(), Estimate.multiply(sz.max(), 4)));
                }
            }
            case "bytes_to_string" -> {
                if (args.size() == 1) {
                    Estimate sz = sizeOrUnknown(args.get(0));
                    return new CallEstimate(
                            sz.multiplyByFactor(STRING_TRAVERSAL).add(argSum),
                            new Estimate(Long.divideUnsigned(sz.min(), 4), sz.max()));
                }
            }
            case "strings_quote" -> {
                if (args.size() == 1) {
                    Estimate sz = sizeOrUnknown(args.get(0));
                    return new CallEstimate(
                            sz.multiplyByFactor(STRING_TRAVERSAL).add(argSum),
                            new Estimate(Estimate.add(sz.min(), 2), Estimate.add(Estimate.multiply(sz.max(), 2), 2)));
                }
            }
            case "starts_with_string", "ends_with_string" -> {
                if (args.size() == 1) {
                    return new CallEstimate(
                            sizeOrUnknown(args.get(0))
                                    .multiplyByFactor(STRING_TRAVERSAL)
                                    .add(argSum),
                            null);
                }
            }
            case "in_list" -> {
                if (args.size() == 2) {
                    return new CallEstimate(
                            sizeOrUnknown(args.get(1)).multiplyByFactor(1).add(argSum), null);
                }
            }
            case "matches_string" -> {
                if (target != null && args.size() == 1) {
                    Estimate strCost = sizeOrUnknown(target).add(ONE).multiplyByFactor(STRING_TRAVERSAL);
                    Estimate regexCost = sizeOrUnknown(args.get(0)).multiplyByFactor(REGEX_STRING_LENGTH);
                    return new CallEstimate(strCost.multiply(regexCost).add(argSum), null);
                }
            }
            case "contains_string" -> {
                if (target != null && args.size() == 1) {
                    Estimate strCost = sizeOrUnknown(target).multiplyByFactor(STRING_TRAVERSAL);
                    Estimate substrCost = sizeOrUnknown(args.get(0)).multiplyByFactor(STRING_TRAVERSAL);
                    return new CallEstimate(strCost.multiply(substrCost).add(argSum), null);
                }
            }
            case "logical_or", "logical_and" -> {
                Estimate lhs = argCosts.get(0);
                Estimate rhs = argCosts.get(1);
                return new CallEstimate(new Estimate(lhs.min(), lhs.add(rhs).max()), null);
            }
            case "conditional" -> {
                Estimate size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
                EntrySize ifTrue = sizes.entrySize(args.get(1).expr());
                EntrySize entries = ifTrue == null
                        ? null
                        : ifTrue.union(sizes.entrySize(args.get(2).expr()));
                if (entries != null) {
                    sizes.putEntrySize(e.id(), entries);
                }
                Estimate cost = argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2)));
                return new CallEstimate(cost, size);
            }
            case "add_string", "add_bytes", "add_list" -> {
                if (args.size() == 2) {
                    Estimate resultSize = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
                    EntrySize lhs = sizes.entrySize(args.get(0).expr());
                    EntrySize entries = lhs == null
                            ? null
                            : lhs.union(sizes.entrySize(args.get(1).expr()));
                    if (entries != null) {
                        sizes.putEntrySize(e.id(), entries);
                    }
                    if (overload.equals("add_list")) {
                        return new CallEstimate(ONE.add(argSum), resultSize);
                    }
                    return new CallEstimate(
                            resultSize.multiplyByFactor(STRING_TRAVERSAL).add(argSum), resultSize);
                }
            }
            case "less_string",
                    "greater_string",
                    "less_equals_string",
                    "greater_equals_string",
                    "less_bytes",
                    "greater_bytes",
                    "less_equals_bytes",
                    "greater_equals_bytes",
                    "equals",
                    "not_equals" -> {
                Estimate lhs = sizeOrUnknown(args.get(0));
                Estimate rhs = sizeOrUnknown(args.get(1));
                long smallestMax = Long.compareUnsigned(rhs.max(), lhs.max()) < 0 ? rhs.max() : lhs.max();
                long least = smallestMax != 0 ? 1 : 0;
                return new CallEstimate(
                        new Estimate(least, smallestMax)
                                .multiplyByFactor(STRING_TRAVERSAL)
                                .add(argSum),
                        null);
            }
            default -> {}
        }
        return new CallEstimate(ONE.add(argSum), null);
    }

    /** The sets extension's estimates: the product of both lists' sizes (twice for equivalence). */
    private CallEstimate extensionCost(String overload, List<AstNode> args) {
        double factor = switch (overload) {
            case "list_sets_contains_list", "list_sets_intersects_list" -> 1;
            case "list_sets_equivalent_list" -> 2;
            default -> 0;
        };
        if (factor == 0 || args.size() != 2) {
            return null;
        }
        Estimate cost = sizeEstimate(args.get(0))
                .multiply(sizeEstimate(args.get(1)))
                .multiplyByFactor(factor)
                .add(ONE);
        return new CallEstimate(cost, null);
    }

    /** Kubernetes' estimates for its libraries and the strings extension, by function name. */
    private CallEstimate kubernetesCost(String function, String overload, AstNode target, List<AstNode> args) {
        switch (function) {
            case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes" -> {
                if (target != null) {
                    Estimate elementCost = ONE;
                    AstNode element = listElement(target);
                    if (element != null) {
                        CelKind k = element.type().kind();
                        if (k == CelKind.STRING || k == CelKind.BYTES) {
                            elementCost = elementCost.add(sizeEstimate(element).multiplyByFactor(STRING_TRAVERSAL));
                        }
                        return new CallEstimate(sizeEstimate(target).multiply(elementCost), null);
                    } else if (function.equals("includes")) {
                        return new CallEstimate(sizeEstimate(target).multiply(elementCost), null);
                    } else {
                        return new CallEstimate(sizeEstimate(target).multiplyByFactor(STRING_TRAVERSAL), null);
                    }
                }
            }
            case "url" -> {
                if (args.size() == 1) {
                    Estimate sz = sizeEstimate(args.get(0));
                    return new CallEstimate(sz.multiplyByFactor(STRING_TRAVERSAL), sz);
                }
            }
            case "lowerAscii", "upperAscii", "substring", "trim" -> {
                if (target != null) {
                    Estimate sz = sizeEstimate(target);
                    return new CallEstimate(sz.multiplyByFactor(STRING_TRAVERSAL), sz);
                }
            }
            case "replace" -> {
                if (target != null && args.size() >= 2) {
                    return replaceCost(sizeEstimate(target), sizeEstimate(args.get(0)), sizeEstimate(args.get(1)));
                }
            }
            case "split" -> {
                if (target != null) {
                    Estimate sz = sizeEstimate(target);
                    long max = sz.max();
                    if (args.size() > 1) {
                        CelExpr limit = args.get(1).expr();
                        if (limit.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                                && limit.constant().getKind() == CelConstant.Kind.INT64_VALUE) {
                            max = limit.constant().int64Value();
                        }
                    }
                    return new CallEstimate(sz.multiplyByFactor(2 * STRING_TRAVERSAL), new Estimate(0, max));
                }
            }
            case "join" -> {
                if (target != null) {
                    Estimate sz = Estimate.ZERO;
                    Estimate listSize = sizeEstimate(target);
                    AstNode element = listElement(target);
                    if (element != null) {
                        sz = listSize.multiply(sizeEstimate(element));
                    }
                    if (!args.isEmpty()) {
                        Estimate separator = sizeEstimate(args.get(0));
                        long minSeparators = listSize.min() != 0 ? listSize.min() - 1 : 0;
                        long maxSeparators = listSize.max() != 0 ? listSize.max() - 1 : 0;
                        sz = sz.add(separator.multiply(new Estimate(minSeparators, maxSeparators)));
                    }
                    return new CallEstimate(sz.multiplyByFactor(STRING_TRAVERSAL), sz);
                }
            }
            case "find", "findAll" -> {
                if (target != null && !args.isEmpty()) {
                    Estimate sz = sizeEstimate(target);
                    Estimate strCost = sz.add(ONE).multiplyByFactor(STRING_TRAVERSAL);
                    Estimate regexCost = sizeEstimate(args.get(0)).multiplyByFactor(REGEX_STRING_LENGTH);
                    return new CallEstimate(strCost.multiply(regexCost), new Estimate(0, sz.max()));
                }
            }
            case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver" -> {
                if (!args.isEmpty()) {
                    return new CallEstimate(sizeEstimate(args.get(0)).multiplyByFactor(STRING_TRAVERSAL), null);
                }
            }
            case "ip" -> {
                if (overload.equals("cidr_ip")) {
                    return new CallEstimate(ONE, null);
                }
                if (!args.isEmpty()) {
                    return new CallEstimate(sizeEstimate(args.get(0)).multiplyByFactor(STRING_TRAVERSAL), null);
                }
            }
            case "masked",
                    "prefixLength",
                    "family",
                    "isUnspecified",
                    "isLoopback",
                    "isLinkLocalMulticast",
                    "isLinkLocalUnicast",
                    "isGlobalUnicast",
                    "format.named",
                    "sign",
                    "asInteger",
                    "isInteger",
                    "asApproximateFloat",
                    "isGreaterThan",
                    "isLessThan",
                    "compareTo",
                    "add",
                    "sub",
                    "major",
                    "minor",
                    "patch",
                    "getScheme",
                    "getHostname",
                    "getHost",
                    "getPort",
                    "getEscapedPath",
                    "getQuery" -> {
                return new CallEstimate(ONE, null);
            }
            default -> {}
        }
        return null;
    }

    /** {@code replace}: the traversal twice, and the longest and shortest results. */
    private static CallEstimate replaceCost(Estimate sz, Estimate toReplace, Estimate replaceWith) {
        long countMax;
        long countMin;
        long retainedMax = 0;
        long retainedMin = 0;
        if (toReplace.min() == 0) {
            countMax = sz.max() != Estimate.MAX ? sz.max() + 1 : sz.max();
            retainedMax = sz.max();
        } else if (Long.compareUnsigned(replaceWith.max(), toReplace.min()) <= 0) {
            countMax = 0;
            retainedMax = sz.max();
        } else {
            countMax = ceilDivide(sz.max(), toReplace.min());
        }
        if (toReplace.max() == 0) {
            countMin = sz.min() != Estimate.MAX ? sz.min() + 1 : sz.min();
            retainedMin = sz.min();
        } else if (Long.compareUnsigned(toReplace.max(), replaceWith.min()) <= 0) {
            countMin = 0;
            retainedMin = sz.min();
        } else {
            countMin = ceilDivide(sz.min(), toReplace.max());
        }
        Estimate size =
                new Estimate(countMin, countMax).multiply(replaceWith).add(new Estimate(retainedMin, retainedMax));
        return new CallEstimate(sz.multiplyByFactor(2 * STRING_TRAVERSAL), size);
    }

    /** {@code ceil(a / b)} computed in floating point, as Kubernetes computes it. */
    private static long ceilDivide(long a, long b) {
        return Estimate.multiplyByFactor(1, Math.ceil(Estimate.toDouble(a) / Estimate.toDouble(b)));
    }

    /** The list's element as a node with a path ({@code @items}) when the list has one. */
    private static AstNode listElement(AstNode list) {
        List<CelType> params = list.type().parameters();
        if (params.isEmpty()) {
            return null;
        }
        List<String> path = list.path() == null ? null : ExpressionSizes.append(list.path(), "@items");
        return new AstNode(path, params.get(0), null, null);
    }

    private Estimate sizeEstimate(AstNode node) {
        if (node.computedSize() != null) {
            return node.computedSize();
        }
        Estimate s = sizes.schemaSize(node.path());
        return s != null ? s : Estimate.UNKNOWN;
    }

    private static Estimate sizeOrUnknown(AstNode node) {
        return node.computedSize() != null ? node.computedSize() : Estimate.UNKNOWN;
    }
}
