package io.kubeloop.maven;

import java.util.List;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * What both goals share: the build's project, session, plugin and toolchains, and {@link #generate}, which
 * runs the generators in a forked JDK 21+ ({@link Generator}).
 */
abstract class GeneratorMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    private PluginDescriptor plugin;

    @Component
    private ToolchainManager toolchains;

    /** The project being built. */
    final MavenProject project() {
        return project;
    }

    /**
     * Runs the generators' process with {@code args} and returns the files it wrote.
     *
     * @throws MojoExecutionException when no JDK 21+ is found or the generators fail (with their message)
     */
    final List<String> generate(List<String> args) throws MojoExecutionException {
        return new Generator(plugin, toolchains, session, getLog()).run(args);
    }
}
