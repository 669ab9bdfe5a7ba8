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
 * Writes CustomResourceDefinitions from the project's compiled {@code @Kind} classes (the engine of
 * {@code kubeloop generate crds}, run on a JDK 21+ whatever JDK Maven runs on), one {@code <plural>.<group>.yaml} per group and kind. By default
 * they go to {@code META-INF/kubeloop/crds/} in the classes directory, so they ship in the jar and
 * the operator can install them:
 *
 * <pre>{@code
 * <execution>
 *   <goals><goal>generate-crds</goal></goals>
 *   <configuration>
 *     <classes><class>com.example.Foo</class></classes>
 *   </configuration>
 * </execution>
 * }</pre>
 */
@Mojo(
        name = "generate-crds",
        defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE,
        threadSafe = true)
public final class GenerateCrdsMojo extends GeneratorMojo {

    /** Fully qualified names of the {@code @Kind} classes; versions of one kind make one CRD. */
    @Parameter(required = true)
    private List<String> classes;

    /** Where the CRD files go. */
    @Parameter(defaultValue = "${project.build.outputDirectory}/META-INF/kubeloop/crds", required = true)
    private File outputDirectory;

    @Override
    public void execute() throws MojoExecutionException {
        try {
            List<String> args = new ArrayList<>(List.of(
                    "crds",
                    outputDirectory.getPath(),
                    String.join(File.pathSeparator, project().getCompileClasspathElements())));
            args.addAll(classes);
            for (String file : generate(args)) {
                getLog().info("kubeloop: wrote " + file);
            }
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("cannot generate CRDs: " + e.getMessage(), e);
        }
    }
}
