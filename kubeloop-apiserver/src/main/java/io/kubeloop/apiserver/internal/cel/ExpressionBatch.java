package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelSource;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelMutableExpr;
import dev.cel.common.ast.CelMutableExprConverter;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.compiler.CelCompiler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Type-checks many parsed CEL expressions — each with its own types for {@code self} and
 * {@code oldSelf} — in one run of the checker, with the results checking each alone gives.
 *
 * <p>Why: cel-java builds its checker's environment (every standard function and overload, each checked
 * against the others for overlaps) anew for every check, and for a short validation rule that is most of
 * the work; the rules of a CRD schema share one this way. How: each expression gets expression ids no
 * other one uses and its free {@code self} and {@code oldSelf} renamed to variables of its own
 * ({@code self@3}, a name no CEL source can spell); the checker sees one list of them, each wrapped in
 * {@code dyn()} so that no element's type bears on another's; afterwards each element is taken back out
 * with its own ids and names, and its entries of the type and reference maps. If anything in the batch
 * does not check, no result is given: check the expressions one by one for their exact errors.
 *
 * <p>Stateless; thread-safe.
 */
final class ExpressionBatch {

    private static final String SELF = "self";
    private static final String OLD_SELF = "oldSelf";

    private ExpressionBatch() {}

    /**
     * One expression to check.
     *
     * @param parsed the parsed (unchecked) expression
     * @param self the type of {@code self}
     * @param oldSelf the type of {@code oldSelf}
     */
    record Item(CelAbstractSyntaxTree parsed, CelType self, CelType oldSelf) {}

    /** Where an item sits in the batch: ids {@code offset} to {@code offset + maxId}. */
    private record Placement(long offset, long maxId, String self, String oldSelf) {}

    /**
     * The checked expressions, in item order; empty when any of them has an error.
     *
     * @param types the struct types the items' variable types name
     */
    static Optional<List<CelAbstractSyntaxTree>> check(List<Item> items, CelTypeProvider types) {
        if (items.isEmpty()) {
            return Optional.of(List.of());
        }
        Map<String, CelType> variables = new LinkedHashMap<>();
        List<Placement> placements = new ArrayList<>(items.size());
        List<CelMutableExpr> elements = new ArrayList<>(items.size());
        long offset = 0;
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            Placement p = new Placement(offset, maxId(item.parsed().getExpr()), SELF + "@" + i, OLD_SELF + "@" + i);
            placements.add(p);
            variables.put(p.self(), item.self());
            variables.put(p.oldSelf(), item.oldSelf());
            CelMutableExpr e = CelMutableExprConverter.fromCelExpr(item.parsed().getExpr());
            rewrite(e, p.offset(), Map.of(SELF, p.self(), OLD_SELF, p.oldSelf()), new HashSet<>());
            elements.add(e);
            offset += p.maxId() + 1;
        }
        offset--; // the last id used
        List<CelMutableExpr> wrapped = new ArrayList<>(elements.size());
        for (CelMutableExpr e : elements) {
            wrapped.add(CelMutableExpr.ofCall(++offset, CelMutableExpr.CelMutableCall.create("dyn", e)));
        }
        CelMutableExpr list = CelMutableExpr.ofList(++offset, CelMutableExpr.CelMutableList.create(wrapped));
        CelAbstractSyntaxTree batch = CelAbstractSyntaxTree.newParsedAst(
                CelMutableExprConverter.fromMutableExpr(list),
                CelSource.newBuilder().build());
        CelCompiler compiler = CelEnvironment.STANDARD.compiler(types, variables);
        CelValidationResult result = compiler.check(batch);
        if (result.hasError()) {
            return Optional.empty();
        }
        CelAbstractSyntaxTree checked;
        try {
            checked = result.getAst();
        } catch (CelValidationException e) {
            return Optional.empty();
        }
        // one pass over the batch's maps, each entry to the item whose ids hold it (wrappers belong to none)
        long[] starts = placements.stream().mapToLong(Placement::offset).toArray();
        List<Map<Long, CelReference>> references = new ArrayList<>(items.size());
        List<Map<Long, CelType>> typeMaps = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            references.add(new HashMap<>());
            typeMaps.add(new HashMap<>());
        }
        checked.getReferenceMap().forEach((id, ref) -> {
            int i = owner(starts, placements, id);
            if (i >= 0) {
                Placement p = placements.get(i);
                references.get(i).put(id - p.offset(), renamed(ref, Map.of(p.self(), SELF, p.oldSelf(), OLD_SELF)));
            }
        });
        checked.getTypeMap().forEach((id, type) -> {
            int i = owner(starts, placements, id);
            if (i >= 0) {
                typeMaps.get(i).put(id - placements.get(i).offset(), type);
            }
        });
        List<CelExpr> checkedElements = checked.getExpr().list().elements();
        List<CelAbstractSyntaxTree> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Placement p = placements.get(i);
            CelMutableExpr e = CelMutableExprConverter.fromCelExpr(
                    checkedElements.get(i).call().args().get(0));
            rewrite(e, -p.offset(), Map.of(p.self(), SELF, p.oldSelf(), OLD_SELF), null);
            CelSource source = items.get(i).parsed().getSource().toBuilder()
                    .addAllExtensions(checked.getSource().getExtensions())
                    .build();
            out.add(CelAbstractSyntaxTree.newCheckedAst(
                    CelMutableExprConverter.fromMutableExpr(e), source, references.get(i), typeMaps.get(i)));
        }
        return Optional.of(List.copyOf(out));
    }

    /** The index of the item whose ids hold {@code id}, or -1 (a wrapper's id). */
    private static int owner(long[] starts, List<Placement> placements, long id) {
        int i = Arrays.binarySearch(starts, id);
        if (i < 0) {
            i = -i - 2; // the last item starting before id
        }
        if (i < 0 || id > starts[i] + placements.get(i).maxId()) {
            return -1;
        }
        return i;
    }

    private static CelReference renamed(CelReference ref, Map<String, String> names) {
        String name = names.get(ref.name());
        if (name == null) {
            return ref;
        }
        CelReference.Builder b = CelReference.newBuilder().setName(name).addOverloadIds(ref.overloadIds());
        ref.value().ifPresent(b::setValue);
        return b.build();
    }

    /**
     * Shifts every id of {@code e} by {@code shift} and renames identifiers by {@code names}: only free
     * ones when {@code bound} is given (the names comprehensions bind in scope), every one when null.
     */
    private static void rewrite(CelMutableExpr e, long shift, Map<String, String> names, Set<String> bound) {
        e.setId(e.id() + shift);
        switch (e.getKind()) {
            case IDENT -> {
                String name = e.ident().name();
                String renamed = names.get(name);
                if (renamed != null && (bound == null || !bound.contains(name))) {
                    e.ident().setName(renamed);
                }
            }
            case SELECT -> rewrite(e.select().operand(), shift, names, bound);
            case CALL -> {
                e.call().target().ifPresent(t -> rewrite(t, shift, names, bound));
                for (CelMutableExpr arg : e.call().args()) {
                    rewrite(arg, shift, names, bound);
                }
            }
            case LIST -> {
                for (CelMutableExpr element : e.list().elements()) {
                    rewrite(element, shift, names, bound);
                }
            }
            case MAP -> {
                for (CelMutableExpr.CelMutableMap.Entry entry : e.map().entries()) {
                    entry.setId(entry.id() + shift);
                    rewrite(entry.key(), shift, names, bound);
                    rewrite(entry.value(), shift, names, bound);
                }
            }
            case STRUCT -> {
                for (CelMutableExpr.CelMutableStruct.Entry entry : e.struct().entries()) {
                    entry.setId(entry.id() + shift);
                    rewrite(entry.value(), shift, names, bound);
                }
            }
            case COMPREHENSION -> {
                CelMutableExpr.CelMutableComprehension c = e.comprehension();
                rewrite(c.iterRange(), shift, names, bound);
                rewrite(c.accuInit(), shift, names, bound);
                Set<String> inner = bound;
                Set<String> withAccu = bound;
                if (bound != null) {
                    withAccu = new HashSet<>(bound);
                    withAccu.add(c.accuVar());
                    inner = new HashSet<>(withAccu);
                    inner.add(c.iterVar());
                    if (!c.iterVar2().isEmpty()) {
                        inner.add(c.iterVar2());
                    }
                }
                rewrite(c.loopCondition(), shift, names, inner);
                rewrite(c.loopStep(), shift, names, inner);
                rewrite(c.result(), shift, names, withAccu);
            }
            default -> {}
        }
    }

    /** The largest id in {@code e}, map and struct entries included. */
    private static long maxId(CelExpr e) {
        long max = e.id();
        switch (e.getKind()) {
            case SELECT -> max = Math.max(max, maxId(e.select().operand()));
            case CALL -> {
                if (e.call().target().isPresent()) {
                    max = Math.max(max, maxId(e.call().target().get()));
                }
                for (CelExpr arg : e.call().args()) {
                    max = Math.max(max, maxId(arg));
                }
            }
            case LIST -> {
                for (CelExpr element : e.list().elements()) {
                    max = Math.max(max, maxId(element));
                }
            }
            case MAP -> {
                for (CelExpr.CelMap.Entry entry : e.map().entries()) {
                    max = Math.max(max, Math.max(entry.id(), Math.max(maxId(entry.key()), maxId(entry.value()))));
                }
            }
            case STRUCT -> {
                for (CelExpr.CelStruct.Entry entry : e.struct().entries()) {
                    max = Math.max(max, Math.max(entry.id(), maxId(entry.value())));
                }
            }
            case COMPREHENSION -> {
                CelExpr.CelComprehension c = e.comprehension();
                for (CelExpr part : List.of(c.iterRange(), c.accuInit(), c.loopCondition(), c.loopStep(), c.result())) {
                    max = Math.max(max, maxId(part));
                }
            }
            default -> {}
        }
        return max;
    }
}
