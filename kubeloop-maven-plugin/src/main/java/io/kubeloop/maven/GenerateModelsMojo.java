package io.kubeloop.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Generates Java records from CustomResourceDefinitions (the engine of {@code kubeloop generate
 * models}, run on a JDK 21+ whatever JDK Maven runs on) into a source root that is compiled with the
 * project:
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>io.kubeloop</groupId>
 *   <artifactId>kubeloop-maven-plugin</artifactId>
 *   <executions>
 *     <execution>
 *       <goals><goal>generate-models</goal></goals>
 *       <configuration>
 *         <crds><crd>src/main/crds/certificates.yaml</crd></crds>
 *         <packageName>com.example.certmanager</packageName>
 *       </configuration>
 *     </execution>
 *   </executions>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "generate-models", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public final class GenerateModelsMojo extends GeneratorMojo {

    /** CRD files (relative to the project) or http(s) URLs; each may hold several documents. */
    @Parameter(required = true)
    private List<String> crds;

    /** The base package: records go to {@code <packageName>.<version>}. */
    @Parameter(required = true)
    private String packageName;

    /** The generated source root, added to the project's compile sources. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/kubeloop", required = true)
    private File outputDirectory;

    /** Whether the records are test sources (compiled with the tests only) rather than main sources. */
    @Parameter(defaultValue = "false")
    private boolean testSources;

    @Override
    public void execute() throws MojoExecutionException {
        List<Path> downloads = new ArrayList<>();
        try {
            List<String> args = new ArrayList<>(List.of("models", outputDirectory.getPath(), packageName));
            for (String crd : crds) {
                args.add(local(crd, downloads));
            }
            List<String> written = generate(args);
            if (testSources) {
                project().addTestCompileSourceRoot(outputDirectory.getPath());
            } else {
                project().addCompileSourceRoot(outputDirectory.getPath());
            }
            getLog().info("kubeloop: generated " + written.size() + " records from " + crds.size() + " CRD files into "
                    + outputDirectory);
        } catch (IOException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        } finally {
            for (Path download : downloads) {
                try {
                    Files.deleteIfExists(download);
                } catch (IOException e) {
                    getLog().debug("cannot delete " + download + ": " + e);
                }
            }
        }
    }

    /** The CRD as a local file: the project's file, or a download of a URL. */
    private String local(String location, List<Path> downloads) throws IOException {
        if (location.startsWith("http://") || location.startsWith("https://")) {
            Path file = Files.createTempFile("kubeloop-crd", ".yaml");
            downloads.add(file);
            try (InputStream in = URI.create(location).toURL().openStream()) {
                Files.write(file, in.readAllBytes());
            }
            return file.toString();
        }
        Path path = project().getBasedir().toPath().resolve(location);
        if (!Files.exists(path)) {
            throw new IOException("no such CRD file: " + path);
        }
        return path.toString();
    }
}
