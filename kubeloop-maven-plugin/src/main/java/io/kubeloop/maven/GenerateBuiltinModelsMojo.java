package io.kubeloop.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Generates the models of Kubernetes' built-in kinds from the OpenAPI v3 documents of one release
 * ({@code api/openapi-spec/v3} of kubernetes/kubernetes) into a source root compiled with the project: a
 * record per definition, one package per API group and version, and the module descriptor when a module name
 * is given. This is how {@code kubeloop-models} is built:
 *
 * <pre>{@code
 * <execution>
 *   <goals><goal>generate-builtin-models</goal></goals>
 *   <configuration>
 *     <openApiDirectory>../kubernetes-openapi/v1.35.0/v3</openApiDirectory>
 *     <release>v1.35.0</release>
 *   </configuration>
 * </execution>
 * }</pre>
 */
@Mojo(name = "generate-builtin-models", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateBuiltinModelsMojo extends GeneratorMojo {

    /** The directory of the release's OpenAPI v3 documents ({@code *.json}). */
    @Parameter(required = true)
    private File openApiDirectory;

    /** The release the documents are of, for the packages' Javadoc, e.g. {@code v1.35.0}. */
    @Parameter(required = true)
    private String release;

    /** The base package: records go to {@code <packageName>.<group>.<version>}. */
    @Parameter(defaultValue = "io.kubeloop.models", required = true)
    private String packageName;

    /** The module the records make up, whose descriptor is generated; none when empty. */
    @Parameter
    private String moduleName;

    /** Where the service registration of the records' kinds goes, added to the project's resources. */
    @Parameter(defaultValue = "${project.build.directory}/generated-resources/kubeloop-models", required = true)
    private File resourcesDirectory;

    /** The generated source root, added to the project's compile sources. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/kubeloop-models", required = true)
    private File outputDirectory;

    @Override
    public void execute() throws MojoExecutionException {
        if (!openApiDirectory.isDirectory()) {
            throw new MojoExecutionException("no such OpenAPI directory: " + openApiDirectory);
        }
        List<String> args = new ArrayList<>(
                List.of("builtin", outputDirectory.getPath(), packageName, openApiDirectory.getPath(), release));
        if (moduleName != null && !moduleName.isBlank()) {
            args.add(moduleName);
        }
        List<String> written = generate(args);
        project().addCompileSourceRoot(outputDirectory.getPath());
        // the records' kinds for Scheme.defaults() on the class path (the module declares it with provides)
        Path services = resourcesDirectory.toPath().resolve("META-INF/services/io.kubeloop.api.spi.ModelSupport");
        try {
            Files.createDirectories(services.getParent());
            Files.writeString(services, packageName + ".internal.BuiltinKinds\n");
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + services + ": " + e.getMessage(), e);
        }
        Resource resource = new Resource();
        resource.setDirectory(resourcesDirectory.getPath());
        project().addResource(resource);
        getLog().info("kubeloop: generated " + written.size() + " files of the " + release + " models into "
                + outputDirectory);
    }
}
