package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.runtime.CelRuntime;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.schema.GoFormat;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import io.kubeloop.apiserver.internal.schema.ValidationRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The compiled {@code x-kubernetes-validations} of one structural schema (one CRD version), and their
 * evaluation on create and update as kube-apiserver does it.
 *
 * <p><b>Compiling</b> ({@link #compile}) type-checks every rule against the schema's types
 * ({@link SchemaTypes}): a rule naming a field the schema lacks, a rule that is not a {@code bool}, a
 * {@code messageExpression} that is not a {@code string}, an unknown {@code reason}, a
 * {@code fieldPath} that names no field, {@code optionalOldSelf} on a rule without {@code oldSelf}, or
 * {@code oldSelf} where old values cannot be correlated (below an array that is not
 * {@code x-kubernetes-list-type: map}) are errors, reported with the CRD path of the rule.
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
     * Compiles every rule in {@code schema}.
     *
     * @param schemaPath the schema's path in its CRD, e.g. {@code spec.versions[0].schema.openAPIV3Schema},
     *     that error fields start with
     */
    public static Compilation compile(StructuralSchema schema, String schemaPath) {
        Objects.requireNonNull(schema, "schema");
        if (!hasRules(schema)) {
            return new Compilation(NONE, List.of());
        }
        Compiler c = new Compiler(SchemaTypes.of(schema));
        Node root = c.node(schema, schemaPath, true);
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
    public List<Status.Cause> validate(tools.jackson.databind.JsonNode object, tools.jackson.databind.JsonNode old) {
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

    /** One compiled rule. */
    record Rule(
            ValidationRule source,
            CelRuntime.Program program,
            CelRuntime.Program message,
            boolean transition,
            RuleFieldPath fieldPath) {}

    /** Turns a schema tree into a {@link Node} tree, collecting errors. */
    private static final class Compiler {
        final SchemaTypes types;
        final List<Status.Cause> errors = new ArrayList<>();

        Compiler(SchemaTypes types) {
            this.types = types;
        }

        /** The node for {@code s}, or null when neither it nor anything below it has rules. */
        Node node(StructuralSchema s, String path, boolean correlatable) {
            if (!hasRules(s)) {
                return null;
            }
            List<Rule> rules = new ArrayList<>();
            List<ValidationRule> sources = s.validationRules();
            for (int i = 0; i < sources.size(); i++) {
                Rule r = rule(s, sources.get(i), path + ".x-kubernetes-validations[" + i + "]", correlatable);
                if (r != null) {
                    rules.add(r);
                }
            }
            Map<String, Node> properties = new LinkedHashMap<>();
            s.properties().forEach((name, child) -> {
                Node n = node(child, path + ".properties[" + name + "]", correlatable);
                if (n != null) {
                    properties.put(name, n);
                }
            });
            Node items = s.items()
                    .map(i -> node(
                            i, path + ".items", correlatable && s.listType().equals("map")))
                    .orElse(null);
            Node values = s.additionalProperties()
                    .map(v -> node(v, path + ".additionalProperties", correlatable))
                    .orElse(null);
            return new Node(s, List.copyOf(rules), properties, items, values);
        }

        private Rule rule(StructuralSchema s, ValidationRule v, String path, boolean correlatable) {
            int before = errors.size();
            if (v.rule().isBlank()) {
                errors.add(cause("FieldValueRequired", path + ".rule", "Required value: rule is not specified"));
                return null;
            }
            if (!v.reason().isEmpty() && !REASONS.contains(v.reason())) {
                errors.add(cause(
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
                    errors.add(invalid(path + ".fieldPath", GoFormat.quote(v.fieldPath()), e.getMessage()));
                }
            }
            CelType self = types.typeOf(s);
            CelType oldSelf = v.optionalOldSelf() ? OptionalType.create(self) : self;
            CelCompiler compiler =
                    CelEnvironment.STANDARD.compiler(types.provider(), Map.of("self", self, "oldSelf", oldSelf));
            CelAbstractSyntaxTree ast = check(compiler, v.rule(), v, path + ".rule", SimpleType.BOOL, "bool");
            CelAbstractSyntaxTree message = v.messageExpression().isEmpty()
                    ? null
                    : check(
                            compiler,
                            v.messageExpression(),
                            v,
                            path + ".messageExpression",
                            SimpleType.STRING,
                            "string");
            boolean transition = ast != null && readsOldSelf(ast) || message != null && readsOldSelf(message);
            if (ast != null && v.optionalOldSelf() && !transition) {
                errors.add(invalid(path + ".optionalOldSelf", "true", "may not be set if oldSelf is not used in rule"));
            }
            if (transition && !correlatable) {
                errors.add(invalid(
                        path + ".rule",
                        render(v),
                        "oldSelf cannot be used on the uncorrelatable portion of the schema"));
            }
            if (errors.size() > before || ast == null) {
                return null;
            }
            CelEnvironment env = CelEnvironment.STANDARD;
            return new Rule(v, env.program(ast), message == null ? null : env.program(message), transition, fieldPath);
        }

        private CelAbstractSyntaxTree check(
                CelCompiler compiler,
                String expression,
                ValidationRule v,
                String field,
                CelType want,
                String wantName) {
            CelValidationResult result = compiler.compile(expression);
            if (result.hasError()) {
                errors.add(invalid(field, render(v), "compilation failed: " + result.getErrorString()));
                return null;
            }
            try {
                CelAbstractSyntaxTree ast = result.getAst();
                CelType got = ast.getResultType();
                if (!got.equals(want) && !got.equals(SimpleType.DYN)) {
                    String what = field.endsWith(".rule") ? "cel expression" : "messageExpression";
                    errors.add(invalid(field, render(v), what + " must evaluate to a " + wantName));
                    return null;
                }
                return ast;
            } catch (dev.cel.common.CelValidationException e) {
                errors.add(invalid(field, render(v), "compilation failed: " + e.getMessage()));
                return null;
            }
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
