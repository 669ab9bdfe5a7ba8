package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.Optional;

/**
 * Where the OpenAPI documents (and anything else schema-driven) find the structural schema of a custom
 * resource version: the CRD layer, which parses {@code spec.versions[*].schema.openAPIV3Schema}, implements
 * it. A custom resource without a known schema is published as a free-form object, as the real server does
 * for a CRD version without schema.
 *
 * <p><b>Thread safety.</b> Implementations must be thread-safe; they are called when the served set changes.
 */
@FunctionalInterface
public interface CustomResourceSchemas {

    /** The schema of the custom resource {@code definition} ({@code custom()} is true), if known. */
    Optional<StructuralSchema> schemaOf(ResourceDefinition definition);

    /** The schema the CRD layer put on each definition ({@link ResourceDefinition#schema()}). */
    static CustomResourceSchemas fromDefinitions() {
        return d -> Optional.ofNullable(d.schema());
    }

    /** No custom resource has a known schema. */
    static CustomResourceSchemas none() {
        return d -> Optional.empty();
    }
}
