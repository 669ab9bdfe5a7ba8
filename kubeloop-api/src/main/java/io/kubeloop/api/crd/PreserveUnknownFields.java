package io.kubeloop.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The API server keeps fields the schema does not name ({@code x-kubernetes-preserve-unknown-fields:
 * true}) instead of pruning them. On a JSON-tree property the value may be any JSON; on a record,
 * the record keeps them in a {@code @JsonAnySetter} map component.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.TYPE_USE, ElementType.TYPE})
public @interface PreserveUnknownFields {}
