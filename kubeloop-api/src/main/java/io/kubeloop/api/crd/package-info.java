/**
 * Annotations that say what a Java type's CustomResourceDefinition schema holds beyond what the
 * type itself says: validation ({@link io.kubeloop.api.crd.Minimum}, {@link
 * io.kubeloop.api.crd.Pattern}, {@link io.kubeloop.api.crd.Validation CEL rules}…), required
 * fields, defaults, list and map merge types, and the CRD's names, versions, subresources and
 * printer columns ({@link io.kubeloop.api.crd.CustomResource}, {@link
 * io.kubeloop.api.crd.PrinterColumn}).
 *
 * <p>Property annotations go on record components or fields, and on type arguments for list items
 * and map values ({@code List<@Pattern("[a-z]+") String>}). kubeloop's CRD generator reads them;
 * kubeloop's model generator writes them, so that types generated from a CRD generate the same CRD.
 */
package io.kubeloop.api.crd;
