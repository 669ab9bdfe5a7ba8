/**
 * Code generation in both directions: {@link io.kubeloop.codegen.ModelGenerator} turns a
 * CustomResourceDefinition's schemas into Java records, {@link io.kubeloop.codegen.CrdGenerator}
 * turns annotated Java types into a CustomResourceDefinition. Records generated from a CRD carry the
 * annotations that make the CRD generator write the same schema back.
 */
package io.kubeloop.codegen;
