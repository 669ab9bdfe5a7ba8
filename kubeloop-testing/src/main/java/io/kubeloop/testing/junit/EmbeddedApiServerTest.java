package io.kubeloop.testing.junit;

import io.kubeloop.apiserver.AdmissionPlugin;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against an {@link io.kubeloop.apiserver.EmbeddedApiServer}: test methods, constructors
 * and lifecycle methods may declare {@code EmbeddedApiServer} and {@code KubeClient} parameters. The
 * CustomResourceDefinitions named by {@link #crds()} and {@link #crdClasses()} are installed and
 * established before any test runs; {@link #admissionPlugins()} switches on admission plugins a default
 * cluster does not run.
 *
 * <pre>{@code
 * @EmbeddedApiServerTest(crds = "classpath:crds/foos.example.com.yaml")
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

    /**
     * CustomResourceDefinitions to install into the server before the tests run, each waited for until
     * established: {@code "classpath:NAME"} is a class path resource (e.g. the
     * {@code META-INF/fabric8/*.yml} fabric8's crd-generator writes), anything else a YAML or JSON file, or
     * a directory of them, by path (relative paths from the working directory: the module's under Maven).
     * A CRD that is refused or not established in time fails the test class (see
     * {@link io.kubeloop.testing.crd.CrdInstaller}).
     */
    String[] crds() default {};

    /**
     * Record types annotated {@link io.kubeloop.api.Kind @Kind} and
     * {@link io.kubeloop.api.crd.CustomResource @CustomResource} whose CRDs (as kubeloop-codegen's
     * {@code CrdGenerator} writes them) are installed before the tests run, after {@link #crds()}.
     */
    Class<?>[] crdClasses() default {};

    /**
     * Admission plugins the server runs besides those a default cluster runs, as kube-apiserver's
     * {@code --enable-admission-plugins} enables them (see {@link io.kubeloop.apiserver.AdmissionPlugin}): with
     * {@code OWNER_REFERENCES_PERMISSION_ENFORCEMENT} a controller's RBAC must allow what that plugin checks
     * ({@code update} on its owners' {@code finalizers}, {@code delete} on the objects it adopts) when it runs as
     * a user outside {@code system:masters}.
     */
    AdmissionPlugin[] admissionPlugins() default {};
}
