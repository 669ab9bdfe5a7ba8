package io.kubeloop.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against an {@link io.kubeloop.apiserver.EmbeddedApiServer}: test methods, constructors
 * and lifecycle methods may declare {@code EmbeddedApiServer} and {@code KubeClient} parameters.
 *
 * <pre>{@code
 * @EmbeddedApiServerTest
 * class MyControllerTest {
 *     @Test
 *     void createsTheDeployment(KubeClient client) { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedApiServerExtension.class)
public @interface EmbeddedApiServerTest {

    /** One fresh server per test method instead of one per class. */
    boolean perTest() default false;

    /**
     * Whether the server's simulated cluster runs workloads (scheduler, kubelets, ReplicaSet and Deployment
     * controllers); off for tests that create ReplicaSets and Pods by hand and need them left alone.
     */
    boolean workloads() default true;
}
