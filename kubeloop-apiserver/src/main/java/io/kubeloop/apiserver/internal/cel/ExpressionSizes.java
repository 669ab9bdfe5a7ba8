package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
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
 * Size estimation for {@link CostEstimator}: what it knows of the size of each node's value in one checked
 * CEL expression — computed by the walk, literal, from the schema ({@link ValueSizes}) by the node's field
 * path, scalar, or a variable's — and the iteration, accumulator and bound variables in scope.
 *
 * <p>Invariants: a node's path, size and entry sizes are recorded once the walk has estimated the node's
 * cost, before any node that uses them; a variable is pushed before the walk enters its scope and popped
 * when it leaves it, so {@link #peek} answers the innermost binding. One instance per estimate; not
 * thread-safe.
 */
final class ExpressionSizes {

    private static final Estimate ONE = Estimate.fixed(1);

    private final CelAbstractSyntaxTree ast;
    private final ValueSizes root;
    /** Expression id to the field path of its value, e.g. {@code [self, spec, ports, @items]}. */
    private final Map<Long, List<String>> paths = new HashMap<>();
    /** Iteration, accumulator and bound variables in scope, innermost last. */
    private final Map<String, Deque<LocalVar>> locals = new HashMap<>();

    private final Map<Long, Estimate> sizes = new HashMap<>();
    private final Map<Long, EntrySize> entrySizes = new HashMap<>();

    /**
     * @param root the sizes of the rule's node, or null when unknown
     */
    ExpressionSizes(CelAbstractSyntaxTree ast, ValueSizes root) {
        this.ast = ast;
        this.root = root;
    }

    /** An AST node as the function estimators see it. */
    record AstNode(List<String> path, CelType type, CelExpr expr, Estimate computedSize) {}

    /** The key and value sizes of a list's or map's entries, where both are known. */
    record EntrySize(CelKind container, Estimate key, Estimate value) {
        EntrySize union(EntrySize other) {
            if (other == null) {
                return null;
            }
            return new EntrySize(container, key.union(other.key), value.union(other.value));
        }
    }

    /** A variable in scope: the field path, size and entry sizes of its value, each possibly unknown. */
    record LocalVar(List<String> path, Estimate size, EntrySize entrySize) {}

    void putPath(long id, List<String> path) {
        paths.put(id, path);
    }

    void putSize(long id, Estimate size) {
        sizes.put(id, size);
    }

    void putEntrySize(long id, EntrySize entries) {
        entrySizes.put(id, entries);
    }

    AstNode node(CelExpr e) {
        List<String> path = path(e);
        if (!path.isEmpty() && isAccumulator(path.get(0))) {
            path = null;
        }
        return new AstNode(path, type(e), e, size(e));
    }

    private static boolean isAccumulator(String name) {
        return name.equals("__result__") || name.equals("@result");
    }

    Estimate sizeOrUnknown(CelExpr e) {
        Estimate s = size(e);
        return s != null ? s : Estimate.UNKNOWN;
    }

    void copySizes(CelExpr dst, CelExpr src) {
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
    Estimate size(CelExpr e) {
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
    Estimate schemaSize(List<String> path) {
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

    EntrySize entrySize(CelExpr e) {
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

    CelType type(CelExpr e) {
        return ast.getType(e.id()).orElse(SimpleType.DYN);
    }

    List<String> path(CelExpr e) {
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null) {
                return v.path();
            }
        }
        return paths.getOrDefault(e.id(), List.of());
    }

    static List<String> append(List<String> path, String step) {
        List<String> out = new ArrayList<>(path.size() + 1);
        out.addAll(path);
        out.add(step);
        return List.copyOf(out);
    }

    // ---- variables in scope ----

    void pushLocal(String name, CelExpr init) {
        push(name, new LocalVar(path(init), size(init), entrySize(init)));
    }

    /** {@code key}: a map's keys or a list's indices; else a map's values or a list's items. */
    void pushIteration(String name, CelExpr range, boolean key) {
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
    void pushSingleIteration(String name, CelExpr range) {
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

    /** The innermost variable named {@code name} in scope, or null. */
    LocalVar peek(String name) {
        Deque<LocalVar> stack = locals.get(name);
        return stack == null ? null : stack.peek();
    }

    void pop(String name) {
        Deque<LocalVar> stack = locals.get(name);
        if (stack != null && !stack.isEmpty()) {
            stack.pop();
        }
    }
}
