package io.kubeloop.apiserver.internal.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.checker.CelStandardDeclarations;
import dev.cel.checker.CelStandardDeclarations.StandardFunction.Overload.Comparison;
import dev.cel.checker.CelStandardDeclarations.StandardFunction.Overload.Conversions;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.compiler.CelCompiler;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Map;

/**
 * The CEL environment of Kubernetes validation expressions: the standard macros and functions, the
 * optional-value syntax ({@code self.?field.orValue(x)}), the strings, sets and two-variable
 * comprehension extensions, and Kubernetes' own libraries ({@link KubernetesFunctions}: list, regex,
 * IP, CIDR and URL functions).
 *
 * <p>One {@link #STANDARD} instance serves every schema: a compiler for a schema's types is derived
 * from it ({@link #compiler}), and every compiled expression runs on its runtime.
 *
 * <p><b>Thread safety.</b> Immutable; compilers and programs it makes are thread-safe.
 */
final class CelEnvironment {

    /** The environment of CRD validation rules and admission policies. */
    static final CelEnvironment STANDARD = new CelEnvironment();

    private final Cel cel;
    private final CelStandardDeclarations standard;
    private final CelCompiler parser;

    private CelEnvironment() {
        CelOptions options = CelOptions.current().populateMacroCalls(true).build();
        cel = CelFactory.standardCelBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addCompilerLibraries(
                        CelExtensions.optional(),
                        CelExtensions.strings(),
                        CelExtensions.sets(options),
                        CelExtensions.comprehensions())
                .addRuntimeLibraries(
                        CelExtensions.optional(),
                        CelExtensions.strings(),
                        CelExtensions.sets(options),
                        CelExtensions.comprehensions())
                .addFunctionDeclarations(KubernetesFunctions.declarations())
                .addFunctionBindings(KubernetesFunctions.bindings())
                .build();
        standard = standardDeclarations(options);
        parser = compiler(SchemaTypes.NONE, Map.of());
    }

    /** A compiler of no variables, to parse with. */
    CelCompiler parser() {
        return parser;
    }

    /**
     * The standard functions as cel-java's checker declares them for {@code options} (the overloads it
     * leaves out for them left out here too), built once: given its standard environment instead, the
     * checker builds these declarations anew for every check.
     */
    private static CelStandardDeclarations standardDeclarations(CelOptions options) {
        return CelStandardDeclarations.newBuilder()
                .filterFunctions((function, overload) -> switch (function) {
                    case INT -> options.enableUnsignedLongs() || !overload.equals(Conversions.INT64_TO_INT64);
                    case TIMESTAMP ->
                        options.enableTimestampEpoch() || !overload.equals(Conversions.INT64_TO_TIMESTAMP);
                    default ->
                        options.enableHeterogeneousNumericComparisons()
                                || !(overload instanceof Comparison c && c.isHeterogeneousComparison());
                })
                .build();
    }

    /** A compiler that knows {@code types} and declares {@code variables} (name to type). */
    CelCompiler compiler(CelTypeProvider types, Map<String, CelType> variables) {
        var builder = cel.toCompilerBuilder()
                .setStandardEnvironmentEnabled(false)
                .setStandardDeclarations(standard)
                .setTypeProvider(types);
        variables.forEach(builder::addVar);
        return builder.build();
    }

    /** A program for a checked AST, made by a compiler of this environment. */
    CelRuntime.Program program(CelAbstractSyntaxTree ast) {
        try {
            return cel.createProgram(ast);
        } catch (CelEvaluationException e) {
            throw new IllegalStateException("a checked expression has no program: " + e.getMessage(), e);
        }
    }
}
