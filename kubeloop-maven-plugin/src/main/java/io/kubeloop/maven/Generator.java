package io.kubeloop.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * Runs kubeloop's code generators in a JVM of their own on a JDK 21 or newer, so that the goals
 * work whatever JDK Maven itself runs on: the project's JDK toolchain when one is selected, else
 * Maven's own JDK when it is 21 or newer, else the newest JDK 21+ in the standard JVM folders.
 */
final class Generator {

    private static final String MAIN = "io.kubeloop.codegen.internal.CodegenMain";

    /**
     * The generators' process prints nothing but its failures, which the goal relays. The manifests goal loads
     * the project's classes and kubeloop-controller, which log through SLF4J: Maven keeps SLF4J out of a
     * plugin's own artifacts, so the process finds slf4j-api on the project's class path, and when that has no
     * provider SLF4J would print its "No SLF4J providers were found" warning, which the goal would relay as a
     * Maven warning. Its own reports are limited to errors, and a project's slf4j-simple to warnings.
     */
    static final List<String> QUIET_LOGGING =
            List.of("-Dslf4j.internal.verbosity=ERROR", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    private final PluginDescriptor plugin;
    private final ToolchainManager toolchains;
    private final MavenSession session;
    private final Log log;

    Generator(PluginDescriptor plugin, ToolchainManager toolchains, MavenSession session, Log log) {
        this.plugin = plugin;
        this.toolchains = toolchains;
        this.session = session;
        this.log = log;
    }

    /** Runs the generator with {@code args}; returns the files it wrote. */
    List<String> run(List<String> args) throws MojoExecutionException {
        String classpath = plugin.getArtifacts().stream()
                .map(a -> a.getFile().getAbsolutePath())
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(QUIET_LOGGING);
        command.add("-cp");
        command.add(classpath);
        command.add(MAIN);
        command.addAll(args);
        try {
            Path err = Files.createTempFile("kubeloop-codegen", ".err");
            try {
                Process process =
                        new ProcessBuilder(command).redirectError(err.toFile()).start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int exit = process.waitFor();
                String messages = Files.readString(err).strip();
                if (exit != 0) {
                    throw new MojoExecutionException(
                            "kubeloop code generation failed: " + (messages.isEmpty() ? "exit " + exit : messages));
                }
                if (!messages.isEmpty()) {
                    log.warn(messages);
                }
                return out.lines().filter(l -> !l.isBlank()).collect(Collectors.toList());
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("cannot run the kubeloop code generator: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted", e);
        }
    }

    private String java() throws MojoExecutionException {
        Toolchain toolchain = toolchains == null ? null : toolchains.getToolchainFromBuildContext("jdk", session);
        if (toolchain != null) {
            String java = toolchain.findTool("java");
            if (java != null && major(java) >= 21) {
                return java;
            }
        }
        String own = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        if (Runtime.version().feature() >= 21) {
            return own;
        }
        String best = null;
        int bestVersion = 0;
        for (String root :
                new String[] {"/usr/lib/jvm", "/usr/java", "/opt/java", "/Library/Java/JavaVirtualMachines"}) {
            File[] dirs = new File(root).listFiles();
            if (dirs == null) {
                continue;
            }
            for (File dir : dirs) {
                for (String candidate : new String[] {"bin/java", "Contents/Home/bin/java"}) {
                    File java = new File(dir, candidate);
                    if (java.canExecute()) {
                        int v = major(java.getPath());
                        if (v >= 21 && v > bestVersion) {
                            best = java.getPath();
                            bestVersion = v;
                        }
                    }
                }
            }
        }
        if (best == null) {
            throw new MojoExecutionException("kubeloop code generation needs a JDK 21 or newer: Maven runs on Java "
                    + Runtime.version().feature()
                    + " and no JDK toolchain or JDK 21+ in the standard folders was found");
        }
        return best;
    }

    /** The feature version of a {@code java} binary, or 0. */
    private static int major(String java) {
        try {
            Process p = new ProcessBuilder(java, "-XshowSettings:properties", "-version")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            for (String line : out.split("\n")) {
                String l = line.strip();
                if (l.startsWith("java.specification.version = ")) {
                    String v = l.substring("java.specification.version = ".length())
                            .strip();
                    return Integer.parseInt(v.startsWith("1.") ? v.substring(2) : v);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
