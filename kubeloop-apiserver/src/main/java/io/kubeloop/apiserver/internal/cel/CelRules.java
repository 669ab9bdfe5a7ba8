package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.schema.GoFormat;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import io.kubeloop.apiserver.internal.schema.ValidationRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The compiled {@code x-kubernetes-validations} of one structural schema (one CRD version), and their
 * evaluation on create and update as kube-apiserver does it.
 *
 * <p><b>Compiling</b> ({@link #compile}) type-checks every rule against the schema's types
 * ({@link SchemaTypes}): a rule naming a field the schema lacks, a rule that is not a {@code bool}, a
 * {@code messageExpression} that is not a {@code string}, an unknown {@code reason}, a
 * {@code fieldPath} that names no field, {@code optionalOldSelf} on a rule without {@code oldSelf}, or
 * {@code oldSelf} where old values cannot be correlated (below an array that is not
 * {@code x-kubernetes-list-type: map}) are errors, reported with the CRD path of the rule. So is a
 * rule whose estimated worst-case cost ({@link CostEstimator}), times the most times its node can occur
 * in one object, is over kube-apiserver's per-expression limit, or a schema whose rules together are over
 * its per-schema limit ({@link CostLimits}). The rules of a schema are type-checked in batches
 * ({@link ExpressionBatch}) and prepared concurrently; the results are those of checking each alone.
 *
 * <p><b>Validating</b> ({@link #validate}) walks the object with its schema: at every node holding
 * rules whose value is present and not null, each rule is evaluated with {@code self} bound to the
 * value. On update the old value is correlated by field name, map key and list-map keys: a transition
 * rule (one that reads {@code oldSelf}) runs only where an old value exists (or, with
 * {@code optionalOldSelf}, always, {@code oldSelf} an optional), and a rule whose node is unchanged is
 * not evaluated at all (ratcheting: what was accepted stays accepted). A rule that is false adds a
 * cause of its {@code reason} at its node (or {@code fieldPath}) with its message, the result of
 * {@code messageExpression}, or {@code failed rule: <rule>}; an evaluation error adds an Invalid cause
 * naming it. Every call has a cost limit and the whole object a budget, counted in evaluated
 * expressions: past them the rule fails, and past the budget no further rule runs.
 *
 * <p><b>Thread safety.</b> Immutable; {@link #validate} may run concurrently.
 */
public final class CelRules {

    /** The evaluated expressions one rule may use. */
    static final long PER_CALL_LIMIT = 1_000_000;
    /** The evaluated expressions all rules of one object may use. */
    static final long OBJECT_BUDGET = 10_000_000;

    private static final Set<String> REASONS =
            Set.of("FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate");
    private static final CelRules NONE = new CelRules(null);

    /**
     * The most expressions type-checked in one batch: enough that the checker's environment is built
     * rarely, few enough that its type substitutions, copied at every overload it tries, stay small.
     */
    private static final int BATCH = 24;

    private final Node root;

    private CelRules(Node root) {
        this.root = root;
    }

    /** The result of compiling a schema's rules: the rules, or one cause per problem. */
    public record Compilation(CelRules rules, List<Status.Cause> errors) {
        public Compilation {
            errors = List.copyOf(errors);
        }
    }

    /**
     * Compiles every rule in {@code schema} and checks their estimated cost.
     *
     * @param schemaPath the schema's path in its CRD, e.g. {@code spec.versions[0].schema.openAPIV3Schema},
     *     that error fields start with
     */
    public static Compilation compile(StructuralSchema schema, String schemaPath) {
        return compile(schema, schemaPath, new ParsedExpressions(0));
    }

    /**
     * Compiles every rule in {@code schema} and checks their estimated cost, parsing each expression text
     * through {@code parses} (the same results as parsing it here).
     *
     * @param schemaPath the schema's path in its CRD, e.g. {@code spec.versions[0].schema.openAPIV3Schema},
     *     that error fields start with
     */
    public static Compilation compile(StructuralSchema schema, String schemaPath, ParsedExpressions parses) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(parses, "parses");
        if (!hasRules(schema)) {
            return new Compilation(NONE, List.of());
        }
        Compiler c = new Compiler(schema, parses);
        Plan plan = c.plan(schema, schemaPath, true, 1L, ValueSizes.of(schema, true));
        c.compileAll();
        Node root = c.assemble(plan);
        c.errors.addAll(c.costs.totalCauses(schemaPath));
        return new Compilation(c.errors.isEmpty() ? new CelRules(root) : NONE, c.errors);
    }

    /** No rules: {@link #validate} answers no causes. */
    public static CelRules none() {
        return NONE;
    }

    /** True when the schema has no rules: {@link #validate} always answers no causes. */
    public boolean isEmpty() {
        return root == null;
    }

    /**
     * Evaluates the rules on {@code object}.
     *
     * @param old the object before the update, or null on create
     * @return one cause per failed rule, in schema order; empty when every rule holds
     */
    public List<Status.Cause> validate(JsonNode object, JsonNode old) {
        if (root == null) {
            return List.of();
        }
        RuleEvaluation evaluation = new RuleEvaluation(OBJECT_BUDGET, PER_CALL_LIMIT);
        root.validate(evaluation, object, old, "", true);
        return evaluation.causes();
    }

    private static boolean hasRules(StructuralSchema s) {
        if (!s.validationRules().isEmpty()) {
            return true;
        }
        return s.properties().values().stream().anyMatch(CelRules::hasRules)
                || s.items().map(CelRules::hasRules).orElse(false)
                || s.additionalProperties().map(CelRules::hasRules).orElse(false);
    }

    /** One compiled rule; its programs are planned when first evaluated. */
    record Rule(
            ValidationRule source,
            PlannedProgram program,
            PlannedProgram message,
            boolean transition,
            RuleFieldPath fieldPath) {}

    /** One expression of a rule: the rule itself or its message expression. */
    private record Expr(RuleTask task, String text, boolean message) {}

    /**
     * What the check of an expression depends on: its text (hence its parse) and the types of
     * {@code self} and {@code oldSelf} (struct types equal only to themselves).
     */
    private record CheckKey(String text, CelType self, CelType oldSelf) {}

    /** An expression parsed or checked: its AST, or CEL's error text. */
    private record Checked(CelAbstractSyntaxTree ast, String error) {}

    /** One rule to compile, with what compiling and costing it needs. */
    private record RuleTask(
            StructuralSchema schema, ValidationRule source, String path, boolean correlatable, ValueSizes sizes) {}

    /**
     * A compiled rule, or the problems found: {@code leading} come before its cost errors (reason, field
     * path, the rule itself), {@code trailing} after them (message expression, {@code oldSelf} use).
     *
     * @param ruleCost the rule's estimated cost (unsigned), 0 when it did not compile
     * @param messageCost the message expression's estimated cost (unsigned), null when there is none
     */
    private record RuleResult(
            Rule rule, List<Status.Cause> leading, List<Status.Cause> trailing, long ruleCost, Long messageCost) {}

    /**
     * A schema node with rules at or below it, and where its values sit in an object: the sizes its
     * values can have and how often it can occur (null: under a list or map without a bound).
     */
    private record Plan(
            StructuralSchema schema,
            List<RuleTask> rules,
            Map<String, Plan> properties,
            Plan items,
            Plan values,
            Long cardinality,
            ValueSizes sizes) {}

    /** The compiler of a node's rules: its type for {@code self}, and for {@code oldSelf} as is or optional. */
    private record CompilerKey(StructuralSchema node, boolean optionalOldSelf) {}

    /**
     * Turns a schema tree into a {@link Node} tree in three steps: {@link #plan} walks the schema and
     * lists every rule with what it needs; {@link #compileAll} type-checks, estimates and prepares all
     * rules at once, on the common fork-join pool (rules are independent; compilers are made once per
     * node and shared); {@link #assemble} builds the nodes and collects the errors and costs in schema
     * order. One per {@link #compile} call.
     */
    private static final class Compiler {
        final SchemaTypes types;
        final List<Status.Cause> errors = new ArrayList<>();
        final CostLimits costs = new CostLimits();
        final List<RuleTask> tasks = new ArrayList<>();
        final Map<RuleTask, RuleResult> results = new IdentityHashMap<>();
        final Map<CompilerKey, CelCompiler> compilers = new ConcurrentHashMap<>();

        final ParsedExpressions parses;

        Compiler(StructuralSchema root, ParsedExpressions parses) {
            this.types = SchemaTypes.of(root);
            this.parses = parses;
        }

        /** The plan of {@code s}, or null when neither it nor anything below it has rules. */
        Plan plan(StructuralSchema s, String path, boolean correlatable, Long cardinality, ValueSizes sizes) {
            if (!hasRules(s)) {
                return null;
            }
            List<RuleTask> rules = new ArrayList<>();
            List<ValidationRule> sources = s.validationRules();
            for (int i = 0; i < sources.size(); i++) {
                RuleTask t = new RuleTask(
                        s, sources.get(i), path + ".x-kubernetes-validations[" + i + "]", correlatable, sizes);
                rules.add(t);
                tasks.add(t);
            }
            Map<String, Plan> properties = new LinkedHashMap<>();
            s.properties().forEach((name, child) -> {
                if (hasRules(child)) {
                    ValueSizes known = sizes == null
                            ? null
                            : FieldNames.escape(name)
                                    .map(n -> sizes.fields().get(n))
                                    .orElse(null);
                    properties.put(
                            name,
                            plan(
                                    child,
                                    path + ".properties[" + name + "]",
                                    correlatable,
                                    cardinality,
                                    known != null ? known : ValueSizes.of(child, child.embeddedResource())));
                }
            });
            Plan items = s.items()
                    .filter(CelRules::hasRules)
                    .map(i -> plan(
                            i,
                            path + ".items",
                            correlatable && s.listType().equals("map"),
                            times(cardinality, s.maxItems()),
                            elementSizes(sizes, i)))
                    .orElse(null);
            Plan values = s.additionalProperties()
                    .filter(CelRules::hasRules)
                    .map(v -> plan(
                            v,
                            path + ".additionalProperties",
                            correlatable,
                            times(cardinality, s.maxProperties()),
                            elementSizes(sizes, v)))
                    .orElse(null);
            return new Plan(s, List.copyOf(rules), properties, items, values, cardinality, sizes);
        }

        private static ValueSizes elementSizes(ValueSizes parent, StructuralSchema element) {
            ValueSizes known = parent == null ? null : parent.element();
            return known != null ? known : ValueSizes.of(element, element.embeddedResource());
        }

        /** The cardinality below a list or map of at most {@code bound} elements (null: unbounded). */
        private static Long times(Long cardinality, Long bound) {
            if (cardinality == null || bound == null) {
                return null;
            }
            return Estimate.multiply(cardinality, Math.max(0, bound));
        }

        /**
         * Compiles every planned rule: parses every expression (concurrently), type-checks them all in one
         * batch (or, when the batch has errors, one by one for their exact messages, concurrently), then
         * estimates their costs and prepares their programs (concurrently).
         */
        void compileAll() {
            List<Expr> exprs = new ArrayList<>();
            for (RuleTask t : tasks) {
                if (!t.source().rule().isBlank()) {
                    exprs.add(new Expr(t, t.source().rule(), false));
                }
                if (!t.source().messageExpression().isEmpty()) {
                    exprs.add(new Expr(t, t.source().messageExpression(), true));
                }
            }
            Map<String, CelValidationResult> parses =
                    this.parses.parseAll(exprs.stream().map(Expr::text).toList());
            Map<String, Checked> parsedByText = new HashMap<>();
            parses.forEach((text, result) -> parsedByText.put(text, checked(result)));
            List<Checked> parsed =
                    exprs.stream().map(e -> parsedByText.get(e.text())).toList();
            // an expression with the same parse and variable types as an earlier one checks as that one
            List<Integer> toCheck = new ArrayList<>();
            List<ExpressionBatch.Item> items = new ArrayList<>();
            Map<CheckKey, Integer> firstOf = new HashMap<>();
            int[] sameAs = new int[exprs.size()];
            for (int i = 0; i < exprs.size(); i++) {
                sameAs[i] = -1;
                if (parsed.get(i).ast() != null) {
                    RuleTask t = exprs.get(i).task();
                    CelType self = types.typeOf(t.schema());
                    ExpressionBatch.Item item = new ExpressionBatch.Item(
                            parsed.get(i).ast(), self, t.source().optionalOldSelf() ? OptionalType.create(self) : self);
                    Integer first =
                            firstOf.putIfAbsent(new CheckKey(exprs.get(i).text(), item.self(), item.oldSelf()), i);
                    if (first != null) {
                        sameAs[i] = first;
                    } else {
                        toCheck.add(i);
                        items.add(item);
                    }
                }
            }
            List<Integer> starts = new ArrayList<>();
            for (int start = 0; start < items.size(); start += BATCH) {
                starts.add(start);
            }
            List<Checked> checked = starts.parallelStream()
                    .flatMap(start -> {
                        int end = Math.min(items.size(), start + BATCH);
                        return ExpressionBatch.check(items.subList(start, end), types.provider())
                                .map(asts -> asts.stream().map(a -> new Checked(a, null)))
                                .orElseGet(() -> toCheck.subList(start, end).stream()
                                        .map(i -> checkAlone(
                                                exprs.get(i).task(),
                                                parsed.get(i).ast())));
                    })
                    .toList();
            Map<Expr, Checked> byExpr = new IdentityHashMap<>();
            for (int i = 0; i < exprs.size(); i++) {
                byExpr.put(exprs.get(i), parsed.get(i));
            }
            for (int j = 0; j < toCheck.size(); j++) {
                byExpr.put(exprs.get(toCheck.get(j)), checked.get(j));
            }
            for (int i = 0; i < exprs.size(); i++) {
                if (sameAs[i] >= 0) {
                    byExpr.put(exprs.get(i), byExpr.get(exprs.get(sameAs[i])));
                }
            }
            Map<RuleTask, Checked[]> byTask = new IdentityHashMap<>();
            for (Expr e : exprs) {
                Checked[] pair = byTask.computeIfAbsent(e.task(), t -> new Checked[2]);
                pair[e.message() ? 1 : 0] = byExpr.get(e);
            }
            List<RuleResult> compiled = tasks.parallelStream()
                    .map(t -> {
                        Checked[] pair = byTask.getOrDefault(t, new Checked[2]);
                        return compileRule(t, pair[0], pair[1]);
                    })
                    .toList();
            for (int i = 0; i < tasks.size(); i++) {
                results.put(tasks.get(i), compiled.get(i));
            }
        }

        /** The node of a plan, adding the errors of its rules and their costs in schema order. */
        Node assemble(Plan p) {
            List<Rule> rules = new ArrayList<>();
            long cardinality = p.cardinality() != null
                    ? p.cardinality()
                    : CostLimits.cardinality(p.sizes() == null ? 1 : p.sizes().minSerializedSize());
            for (RuleTask t : p.rules()) {
                RuleResult r = results.get(t);
                errors.addAll(r.leading());
                long cost = CostLimits.scaled(r.ruleCost(), cardinality);
                addIfPresent(CostLimits.perExpression(t.path() + ".rule", "estimated rule cost", cost));
                costs.observe(t.path() + ".rule", cost);
                if (r.messageCost() != null) {
                    addIfPresent(CostLimits.perExpression(
                            t.path() + ".messageExpression", "estimated messageExpression cost", r.messageCost()));
                    costs.observe(t.path() + ".messageExpression", r.messageCost());
                }
                errors.addAll(r.trailing());
                if (r.rule() != null) {
                    rules.add(r.rule());
                }
            }
            Map<String, Node> properties = new LinkedHashMap<>();
            p.properties().forEach((name, child) -> properties.put(name, assemble(child)));
            Node items = p.items() == null ? null : assemble(p.items());
            Node values = p.values() == null ? null : assemble(p.values());
            return new Node(p.schema(), List.copyOf(rules), properties, items, values);
        }

        private void addIfPresent(Status.Cause cause) {
            if (cause != null) {
                errors.add(cause);
            }
        }

        /** One rule's result, from its rule and message expression as checked (null: not given). */
        private RuleResult compileRule(RuleTask t, Checked rule, Checked messageExpression) {
            StructuralSchema s = t.schema();
            ValidationRule v = t.source();
            String path = t.path();
            List<Status.Cause> leading = new ArrayList<>();
            List<Status.Cause> trailing = new ArrayList<>();
            if (v.rule().isBlank()) {
                leading.add(cause("FieldValueRequired", path + ".rule", "Required value: rule is not specified"));
                return new RuleResult(null, leading, trailing, 0, null);
            }
            if (!v.reason().isEmpty() && !REASONS.contains(v.reason())) {
                leading.add(cause(
                        "FieldValueNotSupported",
                        path + ".reason",
                        "Unsupported value: " + GoFormat.quote(v.reason()) + ": supported values: "
                                + "\"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", "
                                + "\"FieldValueRequired\""));
            }
            RuleFieldPath fieldPath = null;
            if (!v.fieldPath().isEmpty()) {
                try {
                    fieldPath = RuleFieldPath.resolve(s, v.fieldPath());
                } catch (IllegalArgumentException e) {
                    leading.add(invalid(path + ".fieldPath", GoFormat.quote(v.fieldPath()), e.getMessage()));
                }
            }
            CelAbstractSyntaxTree ast = typed(rule, v, path + ".rule", SimpleType.BOOL, "bool", leading);
            CelAbstractSyntaxTree message = messageExpression == null
                    ? null
                    : typed(messageExpression, v, path + ".messageExpression", SimpleType.STRING, "string", trailing);
            long ruleCost =
                    ast == null ? 0 : CostEstimator.estimate(ast, t.sizes()).max();
            Long messageCost = message == null
                    ? null
                    : CostEstimator.estimate(message, t.sizes()).max();
            boolean transition = ast != null && readsOldSelf(ast) || message != null && readsOldSelf(message);
            if (ast != null && v.optionalOldSelf() && !transition) {
                trailing.add(
                        invalid(path + ".optionalOldSelf", "true", "may not be set if oldSelf is not used in rule"));
            }
            if (transition && !t.correlatable()) {
                trailing.add(invalid(
                        path + ".rule",
                        render(v),
                        "oldSelf cannot be used on the uncorrelatable portion of the schema"));
            }
            if (!leading.isEmpty() || !trailing.isEmpty() || ast == null) {
                return new RuleResult(null, leading, trailing, ruleCost, messageCost);
            }
            Rule compiled = new Rule(
                    v,
                    new PlannedProgram(ast),
                    message == null ? null : new PlannedProgram(message),
                    transition,
                    fieldPath);
            return new RuleResult(compiled, leading, trailing, ruleCost, messageCost);
        }

        /** {@code ast} checked on its own, with the types of its rule's node. */
        private Checked checkAlone(RuleTask t, CelAbstractSyntaxTree ast) {
            CelCompiler compiler = compilers.computeIfAbsent(
                    new CompilerKey(t.schema(), t.source().optionalOldSelf()), this::compiler);
            return checked(compiler.check(ast));
        }

        private CelCompiler compiler(CompilerKey key) {
            CelType self = types.typeOf(key.node());
            CelType oldSelf = key.optionalOldSelf() ? OptionalType.create(self) : self;
            return CelEnvironment.STANDARD.compiler(types.provider(), Map.of("self", self, "oldSelf", oldSelf));
        }

        /** A parse or check result: the AST, or CEL's error text. */
        private static Checked checked(CelValidationResult result) {
            if (result.hasError()) {
                return new Checked(null, result.getErrorString());
            }
            try {
                return new Checked(result.getAst(), null);
            } catch (CelValidationException e) {
                return new Checked(null, e.getMessage());
            }
        }

        /** The checked AST when it compiled to the wanted type; else null, with the error added. */
        private static CelAbstractSyntaxTree typed(
                Checked checked,
                ValidationRule v,
                String field,
                CelType want,
                String wantName,
                List<Status.Cause> errors) {
            if (checked.ast() == null) {
                errors.add(invalid(field, render(v), "compilation failed: " + checked.error()));
                return null;
            }
            CelType got = checked.ast().getResultType();
            if (!got.equals(want) && !got.equals(SimpleType.DYN)) {
                String what = field.endsWith(".rule") ? "cel expression" : "messageExpression";
                errors.add(invalid(field, render(v), what + " must evaluate to a " + wantName));
                return null;
            }
            return checked.ast();
        }

        private static boolean readsOldSelf(CelAbstractSyntaxTree ast) {
            return ast.getReferenceMap().values().stream()
                    .anyMatch(r -> r.name().equals("oldSelf"));
        }
    }

    /** The rule as kube-apiserver prints it in compile errors (Go's {@code %#v} of the rule). */
    static String render(ValidationRule v) {
        return "apiextensions.ValidationRule{Rule:" + GoFormat.quote(v.rule())
                + ", Message:" + GoFormat.quote(v.message())
                + ", MessageExpression:" + GoFormat.quote(v.messageExpression())
                + ", Reason:"
                + (v.reason().isEmpty() ? "(*apiextensions.FieldValueErrorReason)(nil)" : GoFormat.quote(v.reason()))
                + ", FieldPath:" + GoFormat.quote(v.fieldPath())
                + ", OptionalOldSelf:" + (v.optionalOldSelf() ? "(*bool)(true)" : "(*bool)(nil)") + "}";
    }

    static Status.Cause cause(String reason, String field, String message) {
        return new Status.Cause(reason, message, field.isEmpty() ? "<nil>" : field);
    }

    static Status.Cause invalid(String field, String renderedValue, String detail) {
        return cause("FieldValueInvalid", field, "Invalid value: " + renderedValue + ": " + detail);
    }
}
