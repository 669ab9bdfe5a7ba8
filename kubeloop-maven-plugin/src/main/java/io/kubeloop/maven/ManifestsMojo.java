package io.kubeloop.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Writes an operator's deployable bundle from the project's compiled classes (the engine of
 * {@code kubeloop manifests}, run on a JDK 21+ whatever JDK Maven runs on): its CRDs (from {@code @Kind}
 * classes), Namespace, ServiceAccount and the RBAC its controllers declare (with leader election), a
 * Deployment, a metrics Service and a PodDisruptionBudget — as {@code NAME.yaml}, a {@code kustomize/}
 * directory for {@code kubectl apply -k} and a Helm chart in {@code helm/NAME/}:
 *
 * <pre>{@code
 * <execution>
 *   <goals><goal>manifests</goal></goals>
 *   <configuration>
 *     <name>foo-operator</name>
 *     <namespace>foo-system</namespace>
 *     <image>ghcr.io/example/foo-operator:1.0</image>
 *     <controllers><controller>com.example.FooController</controller></controllers>
 *     <crdClasses><crdClass>com.example.Foo</crdClass></crdClasses>
 *   </configuration>
 * </execution>
 * }</pre>
 *
 * Each controller class has a public static {@code addTo(io.kubeloop.controller.Manager)} adding its
 * controllers to a manager; the goal calls it on a manager that never starts, to read what they need.
 */
@Mojo(
        name = "manifests",
        defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.RUNTIME,
        threadSafe = true)
public final class ManifestsMojo extends GeneratorMojo {

    /** The operator's name: its Deployment, Service, PodDisruptionBudget, RBAC prefix and chart. */
    @Parameter(required = true)
    private String name;

    /** The namespace it runs in. */
    @Parameter(required = true)
    private String namespace;

    /** Its container image. */
    @Parameter(required = true)
    private String image;

    /** How many copies run; leader election keeps one active. */
    @Parameter(defaultValue = "2")
    private int replicas;

    /** Classes with a public static {@code addTo(Manager)} adding the operator's controllers. */
    @Parameter(required = true)
    private List<String> controllers;

    /** The {@code @Kind} classes whose CRDs the operator serves. */
    @Parameter
    private List<String> crdClasses = List.of();

    /**
     * The Lease its replicas elect a leader with (in {@link #namespace}), passed as {@code --leader-election-id};
     * empty for no leader election (then {@link #replicas} must be 1).
     */
    @Parameter(defaultValue = "${project.artifactId}")
    private String leaderElectionId;

    /**
     * The container's own arguments (a subcommand, flags of the operator's), before the entry point's flags the
     * bundle adds: {@code --leader-elect}, {@code --leader-election-id}, {@code --metrics-bind-address=:8080},
     * {@code --health-probe-bind-address=:8081}, each unless given here.
     */
    @Parameter
    private List<String> args = List.of();

    /**
     * The webhooks the operator serves, each {@code mutating:PATH:GROUP/VERSION/RESOURCE},
     * {@code validating:PATH:GROUP/VERSION/RESOURCE} or {@code conversion:CRD_NAME}: the bundle then
     * carries the webhook Service, cert-manager's Issuer and Certificate, the webhook configurations and
     * the CRDs' conversion settings.
     */
    @Parameter
    private List<String> webhooks = List.of();

    /** Where the bundle goes. */
    @Parameter(defaultValue = "${project.build.directory}/manifests", required = true)
    private File outputDirectory;

    @Override
    public void execute() throws MojoExecutionException {
        try {
            List<String> command = new ArrayList<>(List.of(
                    "manifests",
                    outputDirectory.getPath(),
                    String.join(File.pathSeparator, project().getRuntimeClasspathElements()),
                    name,
                    namespace,
                    image,
                    Integer.toString(replicas),
                    leaderElectionId == null || leaderElectionId.isBlank() ? "-" : leaderElectionId,
                    String.join(",", controllers),
                    crdClasses.isEmpty() ? "-" : String.join(",", crdClasses),
                    webhooks.isEmpty() ? "-" : String.join(",", webhooks)));
            command.addAll(args);
            List<String> files = generate(command);
            getLog().info("kubeloop: wrote " + files.size() + " files of the " + name + " bundle to "
                    + outputDirectory);
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("cannot write the manifests: " + e.getMessage(), e);
        }
    }
}
