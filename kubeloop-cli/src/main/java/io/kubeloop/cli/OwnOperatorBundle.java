package io.kubeloop.cli;

import io.kubeloop.codegen.BundleWebhook;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.codegen.OperatorBundle;
import io.kubeloop.controller.rbac.RbacManifests;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The bundle of a user's operator from its compiled classes, from the inputs of the Maven goal
 * {@code kubeloop-maven-plugin:manifests}: the RBAC that {@link RbacManifests#forControllers} reads from the
 * controllers the setup classes add to a manager (their {@code @Permission}s, watches and leader election),
 * the CRDs of the {@code @Kind} records, and a Deployment of the image with the given arguments.
 *
 * <p>The classes are loaded from the given class path by a loader whose parent is the command's own, so
 * kubeloop's types (the {@code Manager} that {@code addTo} takes, {@code @Permission}) are the command's and
 * the class path needs only the operator's own classes and the libraries they use besides kubeloop.
 *
 * <p>Stateless.
 */
final class OwnOperatorBundle {

    /**
     * What {@code kubeloop manifests --controllers …} asks for.
     *
     * @param classpath the operator's compiled classes ({@link File#pathSeparator}-separated)
     * @param setups classes with a public static {@code addTo(Manager)}
     * @param crdClasses the {@code @Kind} records whose CRDs it serves
     * @param name its name
     * @param namespace where it runs
     * @param image its container image
     * @param replicas how many copies run
     * @param leaseName its leader-election Lease, blank for none
     * @param args the container's arguments
     * @param webhooks the webhooks it serves, in {@link BundleWebhook#parse}'s form
     */
    record Inputs(
            String classpath,
            List<String> setups,
            List<String> crdClasses,
            String name,
            String namespace,
            String image,
            int replicas,
            String leaseName,
            List<String> args,
            List<String> webhooks) {}

    private OwnOperatorBundle() {}

    /**
     * The operator's bundle.
     *
     * @throws IllegalArgumentException naming a class path entry that does not exist, a class that cannot be
     *     loaded, a setup class without a usable {@code addTo(Manager)}, a bad name or webhook
     * @throws io.kubeloop.codegen.CodegenException when a CRD class is not a {@code @Kind} record the generator
     *     takes
     */
    static OperatorBundle of(Inputs in) {
        List<URL> urls = urls(in.classpath());
        List<BundleWebhook> webhooks =
                in.webhooks().stream().map(BundleWebhook::parse).toList();
        List<ObjectNode> rbac;
        try (URLClassLoader loader =
                new URLClassLoader(urls.toArray(URL[]::new), OwnOperatorBundle.class.getClassLoader())) {
            List<Class<?>> setups = new ArrayList<>();
            for (String setup : in.setups()) {
                setups.add(load(setup.strip(), loader, in.classpath()));
            }
            rbac = RbacManifests.forControllers(
                            setups, in.name(), in.namespace(), in.leaseName().isBlank() ? null : in.leaseName())
                    .objects()
                    .stream()
                    .map(o -> o.node().deepCopy())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<ObjectNode> crds = in.crdClasses().isEmpty()
                ? List.of()
                : CrdGenerator.crds(
                        in.classpath(),
                        in.crdClasses().stream().map(String::strip).toList());
        return OperatorBundle.of(in.name(), in.namespace(), in.image())
                .withReplicas(in.replicas())
                .withCrds(crds)
                .withRbac(rbac)
                .withArgs(in.args())
                .withWebhooks(webhooks);
    }

    private static List<URL> urls(String classpath) {
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry);
            if (!Files.exists(path)) {
                throw new IllegalArgumentException("--classpath: " + entry + " does not exist");
            }
            try {
                urls.add(path.toAbsolutePath().toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("--classpath: " + entry + " is not a file or directory", e);
            }
        }
        return urls;
    }

    private static Class<?> load(String name, ClassLoader loader, String classpath) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("class " + name + " not found in --classpath " + classpath, e);
        } catch (LinkageError e) {
            throw new IllegalArgumentException(
                    "class " + name + " cannot be loaded from --classpath " + classpath + ": " + e
                            + " (add the libraries it uses to --classpath)",
                    e);
        }
    }
}
