package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.runtime.CelRuntime;

/**
 * The program of a checked expression, planned when it is first evaluated. Compiling a schema must
 * parse, check and cost every rule (an invalid or too costly rule is refused at create), but planning
 * its program can wait: many rules of a CRD never run, or run long after the create.
 *
 * <p><b>Thread safety.</b> Thread-safe. Two threads evaluating a rule for the first time at once may
 * both plan it; programs of one AST are equivalent and immutable, so either is kept.
 */
final class PlannedProgram {

    private final CelAbstractSyntaxTree ast;
    private volatile CelRuntime.Program program;

    PlannedProgram(CelAbstractSyntaxTree ast) {
        this.ast = ast;
    }

    /** The program, planned on the first call. */
    CelRuntime.Program get() {
        CelRuntime.Program p = program;
        if (p == null) {
            p = CelEnvironment.STANDARD.program(ast);
            program = p;
        }
        return p;
    }
}
