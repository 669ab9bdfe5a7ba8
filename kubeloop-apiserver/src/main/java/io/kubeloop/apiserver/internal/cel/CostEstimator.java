package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The worst-case cost of a checked CEL expression, estimated before it ever runs, as kube-apiserver
 * estimates the cost of a CRD validation rule: CEL's static cost model (one unit per identifier,
 * field selection and simple call; a tenth of a unit per character a string function traverses; a
 * comprehension's step and condition times the most elements its range can have; list and map
 * literals a base cost each), Kubernetes' estimates for its library functions and for the strings and
 * sets extensions, and presence tests ({@code has()}) at no cost. Sizes of values come from the schema
 * ({@link ValueSizes}): a field path such as {@code self.spec.ports.@items.name} is followed to the
 * size its schema allows.
 *
 * <p>One instance per estimate; not thread-safe.
 */
final class CostEstimator {

    private static final double STRING_TRAVERSAL = 0.1;
    private static final double REGEX_STRING_LENGTH = 0.25;
    private static final Estimate ONE = Estimate.fixed(1);
    private static final Estimate LIST_CREATE = Estimate.fixed(10);
    private static final Estimate MAP_CREATE = Estimate.fixed(30);
    private static final Estimate STRUCT_CREATE = Estimate.fixed(40);
    /** Presence tests are free in Kubernetes' environment. */
    private static final Estimate PRESENCE_TEST = Estimate.ZERO;

    private final CelAbstractSyntaxTree ast;
    private final ValueSizes root;
    /** Expression id to the field path of its value, e.g. {@code [self, spec, ports, @items]}. */
    private final Map<Long, List<String>> paths = new HashMap<>();
    /** Iteration, accumulator and bound variables in scope, innermost last. */
    private final Map<String, Deque<LocalVar>> locals = new HashMap<>();

    private final Map<Long, Estimate> sizes = new HashMap<>();
    private final Map<Long, EntrySize> entrySizes = new HashMap<>();

    private CostEstimator(CelAbstractSyntaxTree ast, ValueSizes root) {
        this.ast = ast;
        this.root = root;
    }

    /**
     * The estimated cost range of {@code ast}, a checked expression whose variables ({@code self},
     * {@code oldSelf}) hold values of a node with sizes {@code root}.
     *
     * @param root the sizes of the rule's node, or null when unknown
     */
    static Estimate estimate(CelAbstractSyntaxTree ast, ValueSizes root) {
        return new CostEstimator(ast, root).cost(ast.getExpr());
    }

    /** An AST node as the function estimators see it. */
    private record AstNode(List<String> path, CelType type, CelExpr expr, Estimate computedSize) {}

    /** The key and value sizes of a list's or map's entries, where both are known. */
    private record EntrySize(CelKind container, Estimate key, Estimate value) {
        EntrySize union(EntrySize other) {
            if (other == null) {
                return null;
            }
            return new EntrySize(container, key.union(other.key), value.union(other.value));
        }
    }

    private record LocalVar(List<String> path, Estimate size, EntrySize entrySize) {}

    private Estimate cost(CelExpr e) {
        return switch (e.getKind()) {
            case CONSTANT -> Estimate.ZERO;
            case IDENT -> costIdent(e);
            case SELECT -> costSelect(e);
            case CALL -> costCall(e);
            case LIST -> costList(e);
            case MAP -> costMap(e);
            case STRUCT -> costStruct(e);
            case COMPREHENSION -> isBind(e) ? costBind(e) : costComprehension(e);
            default -> Estimate.ZERO;
        };
    }

    private Estimate costIdent(CelExpr e) {
        String name = e.ident().name();
        LocalVar v = peek(name);
        paths.put(e.id(), v != null ? v.path() : List.of(name));
        return ONE;
    }

    private Estimate costSelect(CelExpr e) {
        CelExpr.CelSelect sel = e.select();
        if (sel.testOnly()) {
            return PRESENCE_TEST.add(cost(sel.operand()));
        }
        Estimate sum = cost(sel.operand());
        CelKind kind = type(sel.operand()).kind();
        if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
            sum = sum.add(ONE);
        }
        paths.put(e.id(), append(path(sel.operand()), sel.field()));
        return sum;
    }

    private Estimate costCall(CelExpr e) {
        CelExpr.CelCall call = e.call();
        if (call.function().equals("dyn") && call.args().size() == 1) {
            CelExpr arg = call.args().get(0);
            Estimate argCost = cost(arg);
            copySizes(e, arg);
            return ONE.add(argCost);
        }
        List<CelExpr> args = call.args();
        List<AstNode> argNodes = new ArrayList<>(args.size());
        List<Estimate> argCosts = new ArrayList<>(args.size());
        for (CelExpr arg : args) {
            argCosts.add(cost(arg));
            argNodes.add(node(arg));
        }
        List<String> overloads = ast.getReference(e.id())
                .map(CelReference::overloadIds)
                .map(List::copyOf)
                .orElse(List.of());
        if (overloads.isEmpty()) {
            return Estimate.ZERO;
        }
        Estimate sum = Estimate.ZERO;
        AstNode target = null;
        if (call.target().isPresent()) {
            sum = sum.add(cost(call.target().get()));
            target = node(call.target().get());
        }
        Estimate fnCost = new Estimate(Estimate.MAX, 0);
        Estimate resultSize = null;
        for (String overload : overloads) {
            CallEstimate c = functionCost(e, call.function(), overload, target, argNodes, argCosts);
            fnCost = fnCost.union(c.cost());
            if (c.resultSize() != null) {
                resultSize = resultSize == null ? c.resultSize() : resultSize.union(c.resultSize());
            }
            if (overload.equals("index_list") && !args.isEmpty()) {
                EntrySize entries = entrySize(args.get(0));
                resultSize = entries == null ? null : entries.value();
                paths.put(e.id(), append(path(args.get(0)), "@items"));
            } else if (overload.equals("index_map") && !args.isEmpty()) {
                EntrySize entries = entrySize(args.get(0));
                resultSize = entries == null ? null : entries.value();
                paths.put(e.id(), append(path(args.get(0)), "@values"));
            }
            if (resultSize == null) {
                resultSize = size(e);
            }
        }
        if (resultSize != null) {
            sizes.put(e.id(), resultSize);
        }
        return sum.add(fnCost);
    }

    private Estimate costList(CelExpr e) {
        List<CelExpr> elements = e.list().elements();
        Estimate sum = Estimate.ZERO;
        Estimate itemSize = new Estimate(elements.isEmpty() ? 0 : Estimate.MAX, 0);
        for (CelExpr element : elements) {
            sum = sum.add(cost(element));
            itemSize = itemSize.union(sizeOrUnknown(element));
        }
        entrySizes.put(e.id(), new EntrySize(CelKind.LIST, ONE, itemSize));
        return sum.add(LIST_CREATE);
    }

    private Estimate costMap(CelExpr e) {
        List<CelExpr.CelMap.Entry> entries = e.map().entries();
        Estimate sum = Estimate.ZERO;
        long least = entries.isEmpty() ? 0 : Estimate.MAX;
        Estimate keySize = new Estimate(least, 0);
        Estimate valueSize = new Estimate(least, 0);
        for (CelExpr.CelMap.Entry entry : entries) {
            sum = sum.add(cost(entry.key())).add(cost(entry.value()));
            keySize = keySize.union(sizeOrUnknown(entry.key()));
            valueSize = valueSize.union(sizeOrUnknown(entry.value()));
        }
        entrySizes.put(e.id(), new EntrySize(CelKind.MAP, keySize, valueSize));
        return sum.add(MAP_CREATE);
    }

    private Estimate costStruct(CelExpr e) {
        Estimate sum = Estimate.ZERO;
        for (CelExpr.CelStruct.Entry entry : e.struct().entries()) {
            sum = sum.add(cost(entry.value()));
        }
        return sum.add(STRUCT_CREATE);
    }

    private Estimate costComprehension(CelExpr e) {
        CelExpr.CelComprehension comp = e.comprehension();
        Estimate sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
        pushLocal(comp.accuVar(), comp.accuInit());
        boolean twoVars = !comp.iterVar2().isEmpty();
        if (twoVars) {
            pushIteration(comp.iterVar(), comp.iterRange(), true);
            pushIteration(comp.iterVar2(), comp.iterRange(), false);
        } else {
            pushSingleIteration(comp.iterVar(), comp.iterRange());
        }
        Estimate loopCost = cost(comp.loopCondition());
        Estimate stepCost = cost(comp.loopStep());
        pop(comp.iterVar());
        if (twoVars) {
            pop(comp.iterVar2());
        }
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        Estimate rangeCount = sizeOrUnknown(comp.iterRange());
        sum = sum.add(rangeCount.multiply(stepCost.add(loopCost)));
        switch (comp.accuInit().getKind()) {
            case CONSTANT -> {
                Estimate s = size(comp.accuInit());
                if (s != null) {
                    sizes.put(e.id(), s);
                }
            }
            case LIST, MAP -> {
                sizes.put(e.id(), rangeCount);
                EntrySize step = entrySize(comp.loopStep());
                if (step != null) {
                    entrySizes.put(e.id(), step);
                }
            }
            default -> {}
        }
        return sum;
    }

    /** {@code cel.bind(v, init, result)}: a comprehension over an empty list whose condition is false. */
    private static boolean isBind(CelExpr e) {
        CelExpr.CelComprehension comp = e.comprehension();
        CelExpr range = comp.iterRange();
        CelExpr condition = comp.loopCondition();
        return range.getKind() == CelExpr.ExprKind.Kind.LIST
                && range.list().elements().isEmpty()
                && condition.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && condition.constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
                && !condition.constant().booleanValue()
                && !comp.accuVar().equals("__result__");
    }

    private Estimate costBind(CelExpr e) {
        CelExpr.CelComprehension comp = e.comprehension();
        Estimate sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
        pushLocal(comp.accuVar(), comp.accuInit());
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        copySizes(e, comp.result());
        return sum;
    }

    /** A call's cost and, for strings, bytes, lists and maps, its result's size. */
    private record CallEstimate(Estimate cost, Estimate resultSize) {}

    private CallEstimate functionCost(
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
                EntrySize ifTrue = entrySize(args.get(1).expr());
                EntrySize entries = ifTrue == null
                        ? null
                        : ifTrue.union(entrySize(args.get(2).expr()));
                if (entries != null) {
                    entrySizes.put(e.id(), entries);
                }
                Estimate cost = argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2)));
                return new CallEstimate(cost, size);
            }
            case "add_string", "add_bytes", "add_list" -> {
                if (args.size() == 2) {
                    Estimate resultSize = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
                    EntrySize lhs = entrySize(args.get(0).expr());
                    EntrySize entries =
                            lhs == null ? null : lhs.union(entrySize(args.get(1).expr()));
                    if (entries != null) {
                        entrySizes.put(e.id(), entries);
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
        List<String> path = list.path() == null ? null : append(list.path(), "@items");
        return new AstNode(path, params.get(0), null, null);
    }

    private Estimate sizeEstimate(AstNode node) {
        if (node.computedSize() != null) {
            return node.computedSize();
        }
        Estimate s = schemaSize(node.path());
        return s != null ? s : Estimate.UNKNOWN;
    }

    // ---- sizes and paths ----

    private AstNode node(CelExpr e) {
        List<String> path = path(e);
        if (!path.isEmpty() && isAccumulator(path.get(0))) {
            path = null;
        }
        return new AstNode(path, type(e), e, size(e));
    }

    private static boolean isAccumulator(String name) {
        return name.equals("__result__") || name.equals("@result");
    }

    private Estimate sizeOrUnknown(CelExpr e) {
        Estimate s = size(e);
        return s != null ? s : Estimate.UNKNOWN;
    }

    private static Estimate sizeOrUnknown(AstNode node) {
        return node.computedSize() != null ? node.computedSize() : Estimate.UNKNOWN;
    }

    private void copySizes(CelExpr dst, CelExpr src) {
        Estimate s = size(src);
        if (s != null) {
            sizes.put(dst.id(), s);
        }
        EntrySize entries = entrySize(src);
        if (entries != null) {
            entrySizes.put(dst.id(), entries);
        }
    }

    /** The size of {@code e}'s value, when known: computed, literal, from the schema, scalar, or a variable's. */
    private Estimate size(CelExpr e) {
        Estimate known = sizes.get(e.id());
        if (known != null) {
            return known;
        }
        Estimate literal = literalSize(e);
        if (literal != null) {
            return literal;
        }
        Estimate fromSchema = schemaSize(path(e));
        if (fromSchema != null) {
            sizes.put(e.id(), fromSchema);
            return fromSchema;
        }
        if (isScalar(type(e))) {
            return ONE;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null && v.size() != null) {
                return v.size();
            }
        }
        return null;
    }

    /** The size the schema allows at {@code path} (its first element names the variable), or null. */
    private Estimate schemaSize(List<String> path) {
        if (path == null || path.isEmpty() || root == null) {
            return null;
        }
        ValueSizes at = root.at(path.subList(1, path.size()));
        return at == null ? null : new Estimate(0, at.maxElements());
    }

    private static Estimate literalSize(CelExpr e) {
        return switch (e.getKind()) {
            case CONSTANT -> {
                CelConstant c = e.constant();
                yield switch (c.getKind()) {
                    case STRING_VALUE ->
                        Estimate.fixed(c.stringValue()
                                .codePointCount(0, c.stringValue().length()));
                    case BYTES_VALUE -> Estimate.fixed(c.bytesValue().size());
                    case BOOLEAN_VALUE,
                            DOUBLE_VALUE,
                            DURATION_VALUE,
                            INT64_VALUE,
                            TIMESTAMP_VALUE,
                            UINT64_VALUE,
                            NULL_VALUE -> ONE;
                    default -> null;
                };
            }
            case LIST -> Estimate.fixed(e.list().elements().size());
            case MAP -> Estimate.fixed(e.map().entries().size());
            default -> null;
        };
    }

    private static boolean isScalar(CelType t) {
        return switch (t.kind()) {
            case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT -> true;
            case OPAQUE ->
                t.name().equals("optional_type")
                        && !t.parameters().isEmpty()
                        && isScalar(t.parameters().get(0));
            default -> false;
        };
    }

    private EntrySize entrySize(CelExpr e) {
        EntrySize known = entrySizes.get(e.id());
        if (known != null) {
            return known;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null) {
                return v.entrySize();
            }
        }
        return null;
    }

    private CelType type(CelExpr e) {
        return ast.getType(e.id()).orElse(SimpleType.DYN);
    }

    private List<String> path(CelExpr e) {
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null) {
                return v.path();
            }
        }
        return paths.getOrDefault(e.id(), List.of());
    }

    private static List<String> append(List<String> path, String step) {
        List<String> out = new ArrayList<>(path.size() + 1);
        out.addAll(path);
        out.add(step);
        return List.copyOf(out);
    }

    // ---- variables in scope ----

    private void pushLocal(String name, CelExpr init) {
        push(name, new LocalVar(path(init), size(init), entrySize(init)));
    }

    /** {@code key}: a map's keys or a list's indices; else a map's values or a list's items. */
    private void pushIteration(String name, CelExpr range, boolean key) {
        EntrySize entries = entrySize(range);
        CelKind container = entries != null ? entries.container() : type(range).kind();
        String step;
        if (key) {
            step = container == CelKind.LIST ? "@indices" : "@keys";
        } else {
            step = container == CelKind.LIST ? "@items" : "@values";
        }
        Estimate size = entries == null ? null : key ? entries.key() : entries.value();
        push(name, new LocalVar(append(path(range), step), size, null));
    }

    /** One iteration variable: a list's items or a map's keys. */
    private void pushSingleIteration(String name, CelExpr range) {
        EntrySize entries = entrySize(range);
        CelKind container = entries != null ? entries.container() : type(range).kind();
        Estimate size = entries == null ? null : entries.key();
        String step = "@keys";
        if (container == CelKind.LIST) {
            size = entries == null ? null : entries.value();
            step = "@items";
        }
        push(name, new LocalVar(append(path(range), step), size, null));
    }

    private void push(String name, LocalVar v) {
        locals.computeIfAbsent(name, n -> new ArrayDeque<>()).push(v);
    }

    private LocalVar peek(String name) {
        Deque<LocalVar> stack = locals.get(name);
        return stack == null ? null : stack.peek();
    }

    private void pop(String name) {
        Deque<LocalVar> stack = locals.get(name);
        if (stack != null && !stack.isEmpty()) {
            stack.pop();
        }
    }
}
