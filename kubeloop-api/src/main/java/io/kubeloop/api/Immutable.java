package io.kubeloop.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that every instance of the annotated type is deeply immutable: no field, list, map or nested
 * value reachable from it can change after construction. kubeloop's caches hand such objects to every
 * reader as they are, without the deep copy controller-runtime makes on each read (a type without it is
 * copied, so a reader that changes its copy cannot corrupt the cache).
 *
 * <p>The records of {@code kubeloop-models} carry it. Put it on a type of your own only when it holds: a
 * record whose canonical constructor freezes its lists and maps ({@link io.kubeloop.api.json.Frozen}) and
 * whose components are themselves immutable. A record whose components are all declared of immutable types
 * (strings, boxed numbers, enums, {@code java.time} values, types carrying this annotation, or such
 * records) needs no annotation: the caches see that from its declaration.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Immutable {}
