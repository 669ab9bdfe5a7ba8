package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import io.kubeloop.apiserver.internal.cel.ExpressionSizes.AstNode;
import io.kubeloop.apiserver.internal.cel.ExpressionSizes.EntrySize;
import io.kubeloop.apiserver.internal.cel.ExpressionSizes.LocalVar;
import io.kubeloop.apiserver.internal.cel.FunctionCosts.CallEstimate;
import java.util.ArrayList;
import java.util.List;

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
 * <p>This class walks the expression and adds up the costs of its nodes; {@link FunctionCosts} holds the
 * per-function cost tables and {@link ExpressionSizes} the sizes of values and the variables in scope.
 *
 * <p>One instance per estimate; not thread-safe.
 */
final class CostEstimator {

    private static final Estimate ONE = Estimate.fixed(1);
    private static final Estimate LIST_CREATE = Estimate.fixed(10);
    private static final Estimate MAP_CREATE = Estimate.fixed(30);
    private static final Estimate STRUCT_CREATE = Estimate.fixed(40);
    /** Presence tests are free in Kubernetes' environment. */
    private static final Estimate PRESENCE_TEST = Estimate.ZERO;

    private final CelAbstractSyntaxTree ast;
    private final ExpressionSizes sizes;
    private final FunctionCosts functions;

    private CostEstimator(CelAbstractSyntaxTree ast, ValueSizes root) {
        this.ast = ast;
        this.sizes = new ExpressionSizes(ast, root);
        this.functions = new FunctionCosts(sizes);
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
        LocalVar v = sizes.peek(name);
        sizes.putPath(e.id(), v != null ? v.path() : List.of(name));
        return ONE;
    }

    private Estimate costSelect(CelExpr e) {
        CelExpr.CelSelect sel = e.select();
        if (sel.testOnly()) {
            return PRESENCE_TEST.add(cost(sel.operand()));
        }
        Estimate sum = cost(sel.operand());
        CelKind kind = sizes.type(sel.operand()).kind();
        if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
            sum = sum.add(ONE);
        }
        sizes.putPath(e.id(), ExpressionSizes.append(sizes.path(sel.operand()), sel.field()));
        return sum;
    }

    private Estimate costCall(CelExpr e) {
        CelExpr.CelCall call = e.call();
        if (call.function().equals("dyn") && call.args().size() == 1) {
            CelExpr arg = call.args().get(0);
            Estimate argCost = cost(arg);
            sizes.copySizes(e, arg);
            return ONE.add(argCost);
        }
        List<CelExpr> args = call.args();
        List<AstNode> argNodes = new ArrayList<>(args.size());
        List<Estimate> argCosts = new ArrayList<>(args.size());
        for (CelExpr arg : args) {
            argCosts.add(cost(arg));
            argNodes.add(sizes.node(arg));
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
            target = sizes.node(call.target().get());
        }
        Estimate fnCost = new Estimate(Estimate.MAX, 0);
        Estimate resultSize = null;
        for (String overload : overloads) {
            CallEstimate c = functions.cost(e, call.function(), overload, target, argNodes, argCosts);
            fnCost = fnCost.union(c.cost());
            if (c.resultSize() != null) {
                resultSize = resultSize == null ? c.resultSize() : resultSize.union(c.resultSize());
            }
            if (overload.equals("index_list") && !args.isEmpty()) {
                EntrySize entries = sizes.entrySize(args.get(0));
                resultSize = entries == null ? null : entries.value();
                sizes.putPath(e.id(), ExpressionSizes.append(sizes.path(args.get(0)), "@items"));
            } else if (overload.equals("index_map") && !args.isEmpty()) {
                EntrySize entries = sizes.entrySize(args.get(0));
                resultSize = entries == null ? null : entries.value();
                sizes.putPath(e.id(), ExpressionSizes.append(sizes.path(args.get(0)), "@values"));
            }
            if (resultSize == null) {
                resultSize = sizes.size(e);
            }
        }
        if (resultSize != null) {
            sizes.putSize(e.id(), resultSize);
        }
        return sum.add(fnCost);
    }

    private Estimate costList(CelExpr e) {
        List<CelExpr> elements = e.list().elements();
        Estimate sum = Estimate.ZERO;
        Estimate itemSize = new Estimate(elements.isEmpty() ? 0 : Estimate.MAX, 0);
        for (CelExpr element : elements) {
            sum = sum.add(cost(element));
            itemSize = itemSize.union(sizes.sizeOrUnknown(element));
        }
        sizes.putEntrySize(e.id(), new EntrySize(CelKind.LIST, ONE, itemSize));
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
            keySize = keySize.union(sizes.sizeOrUnknown(entry.key()));
            valueSize = valueSize.union(sizes.sizeOrUnknown(entry.value()));
        }
        sizes.putEntrySize(e.id(), new EntrySize(CelKind.MAP, keySize, valueSize));
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
        sizes.pushLocal(comp.accuVar(), comp.accuInit());
        boolean twoVars = !comp.iterVar2().isEmpty();
        if (twoVars) {
            sizes.pushIteration(comp.iterVar(), comp.iterRange(), true);
            sizes.pushIteration(comp.iterVar2(), comp.iterRange(), false);
        } else {
            sizes.pushSingleIteration(comp.iterVar(), comp.iterRange());
        }
        Estimate loopCost = cost(comp.loopCondition());
        Estimate stepCost = cost(comp.loopStep());
        sizes.pop(comp.iterVar());
        if (twoVars) {
            sizes.pop(comp.iterVar2());
        }
        sum = sum.add(cost(comp.result()));
        sizes.pop(comp.accuVar());
        Estimate rangeCount = sizes.sizeOrUnknown(comp.iterRange());
        sum = sum.add(rangeCount.multiply(stepCost.add(loopCost)));
        switch (comp.accuInit().getKind()) {
            case CONSTANT -> {
                Estimate s = sizes.size(comp.accuInit());
                if (s != null) {
                    sizes.putSize(e.id(), s);
                }
            }
            case LIST, MAP -> {
                sizes.putSize(e.id(), rangeCount);
                EntrySize step = sizes.entrySize(comp.loopStep());
                if (step != null) {
                    sizes.putEntrySize(e.id(), step);
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
        sizes.pushLocal(comp.accuVar(), comp.accuInit());
        sum = sum.add(cost(comp.result()));
        sizes.pop(comp.accuVar());
        sizes.copySizes(e, comp.result());
        return sum;
    }
}
