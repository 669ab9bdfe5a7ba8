/**
 * kubeloop's code generators: Java records from CRD schemas and CRDs from Java types. Used by the
 * {@code kubeloop generate} command and the Maven plugin; {@code io.kubeloop.codegen.internal} is no
 * API.
 */
module io.kubeloop.codegen {
    requires transitive io.kubeloop.api;

    exports io.kubeloop.codegen;
}
