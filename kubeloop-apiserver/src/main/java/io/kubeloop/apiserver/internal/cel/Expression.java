package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One CEL expression over untyped (JSON) variables, as admission policies use them: every variable is
 * {@code dyn} except {@code variables}, a map of the policy's named variables. Compiled once, evaluated
 * many times, within {@link CelRules#PER_CALL_LIMIT} evaluated expressions per call.
 *
 * <p><b>Thread safety.</b> Immutable; {@link #evaluate} may run concurrently.
 */
public final class Expression {

    /** The result type an expression must have. */
    public enum Result {
        BOOL,
        STRING,
        ANY
    }

    /** Why an expression did not compile or evaluate; the message is CEL's. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** The variables of admission policy expressions, in kube-apiserver's names. */
    public static final List<String> ADMISSION_VARIABLES =
            List.of("object", "oldObject", "request", "params", "namespaceObject", "variables");

    private final String text;
    private final CelRuntime.Program program;

    private Expression(String text, CelRuntime.Program program) {
        this.text = text;
        this.program = program;
    }

    /**
     * Compiles {@code text} with {@code variables} declared ({@code variables} itself, if named, is a
     * map of string to dyn).
     *
     * @throws Failure with the compiler's errors, or when the result type is not {@code result}
     */
    public static Expression compile(String text, List<String> variables, Result result) throws Failure {
        Map<String, CelType> declared = new LinkedHashMap<>();
        for (String v : variables) {
            declared.put(v, v.equals("variables") ? MapType.create(SimpleType.STRING, SimpleType.DYN) : SimpleType.DYN);
        }
        CelCompiler compiler = CelEnvironment.STANDARD.compiler(SchemaTypes.NONE, declared);
        CelValidationResult compiled = compiler.compile(text);
        if (compiled.hasError()) {
            throw new Failure("compilation failed: " + compiled.getErrorString());
        }
        CelAbstractSyntaxTree ast;
        try {
            ast = compiled.getAst();
        } catch (CelValidationException e) {
            throw new Failure("compilation failed: " + e.getMessage());
        }
        CelType type = ast.getResultType();
        CelType want = switch (result) {
            case BOOL -> SimpleType.BOOL;
            case STRING -> SimpleType.STRING;
            case ANY -> null;
        };
        if (want != null && !type.equals(want) && !type.equals(SimpleType.DYN)) {
            throw new Failure("must evaluate to " + want.name());
        }
        return new Expression(text, CelEnvironment.STANDARD.program(ast));
    }

    /**
     * Evaluates with {@code activation} (variable name to a value made by {@link #value}).
     *
     * @throws Failure on an evaluation error or past the cost limit
     */
    public Object evaluate(Map<String, ?> activation) throws Failure {
        RuleEvaluation cost = new RuleEvaluation(CelRules.PER_CALL_LIMIT, CelRules.PER_CALL_LIMIT);
        try {
            return cost.run(program, activation);
        } catch (RuleEvaluation.CostLimitExceeded e) {
            throw new Failure("operation cancelled: actual cost limit exceeded");
        } catch (CelEvaluationException e) {
            throw new Failure(Node.errorText(e));
        }
    }

    /** The expression as written. */
    public String text() {
        return text;
    }

    /** The CEL value of a JSON value (null or missing: CEL's null). */
    public static Object value(JsonNode node) {
        return node == null || node.isMissingNode() ? CelValues.untyped(null) : CelValues.untyped(node);
    }
}
