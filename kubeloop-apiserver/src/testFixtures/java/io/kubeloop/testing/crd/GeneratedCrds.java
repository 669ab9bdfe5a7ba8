package io.kubeloop.testing.crd;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * CRDs from annotated types, by kubeloop-codegen's {@code CrdGenerator}, reached by name: kubeloop-testing
 * depends on kubeloop-codegen, but this package is also compiled by kubeloop-apiserver's own tests, which
 * must not (kubeloop-codegen's tests use the server). Stateless.
 */
final class GeneratedCrds {

    private static final String GENERATOR = "io.kubeloop.codegen.CrdGenerator";

    private GeneratedCrds() {}

    /** The CRDs of {@code types}, as {@code CrdGenerator.crds(types)} writes them. */
    static List<ObjectNode> of(List<Class<?>> types) {
        Method crds;
        try {
            crds = Class.forName(GENERATOR, true, GeneratedCrds.class.getClassLoader())
                    .getMethod("crds", List.class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalStateException(
                    "CRDs from record types need kubeloop-codegen on the class path (kubeloop-testing brings it)", e);
        }
        try {
            List<?> generated = (List<?>) crds.invoke(null, types);
            List<ObjectNode> out = new ArrayList<>();
            for (Object crd : generated) {
                out.add((ObjectNode) crd);
            }
            return out;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r; // CodegenException: not a kind, a schema that cannot be written…
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
