package io.kubeloop.codegen.internal;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.BundleWebhook;
import io.kubeloop.codegen.CodegenException;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.codegen.OperatorBundle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code manifests} mode of {@link CodegenMain}: an operator's {@link OperatorBundle} from a project's
 * classes — the RBAC of the controllers its setup classes add to a manager (through kubeloop-controller's
 * {@code RbacManifests.forControllers}, found on the project's class path), the CRDs of its {@code @Kind}
 * classes — written as {@code NAME.yaml}, a {@code kustomize/} directory and a Helm chart in {@code helm/NAME/}.
 *
 * <p>Stateless.
 */
final class BundleMain {

    private static final String RBAC_MANIFESTS = "io.kubeloop.controller.rbac.RbacManifests";

    /** What the goal asks for. */
    record Request(
            Path out,
            String classpath,
            String name,
            String namespace,
            String image,
            int replicas,
            String leaseName,
            List<String> setups,
            List<String> crdClasses,
            List<BundleWebhook> webhooks,
            List<String> args) {}

    private BundleMain() {}

    /**
     * Parses {@code manifests OUT CLASSPATH NAME NAMESPACE IMAGE REPLICAS LEASE|- SETUP[,SETUP] CRD[,CRD]|-
     * WEBHOOK[,WEBHOOK]|- [ARG...]} (webhooks in {@link BundleWebhook#parse}'s form).
     */
    static Request parse(List<String> a) {
        if (a.size() < 11) {
            throw new IllegalArgumentException("usage: manifests OUT CLASSPATH NAME NAMESPACE IMAGE REPLICAS "
                    + "LEASE|- SETUP[,SETUP...] CRD_CLASS[,...]|- WEBHOOK[,...]|- [ARG...]");
        }
        int replicas;
        try {
            replicas = Integer.parseInt(a.get(6));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("replicas must be a number, got " + a.get(6));
        }
        return new Request(
                Path.of(a.get(1)),
                a.get(2),
                a.get(3),
                a.get(4),
                a.get(5),
                replicas,
                a.get(7).equals("-") ? null : a.get(7),
                List.of(a.get(8).split(",")),
                a.get(9).equals("-") ? List.of() : List.of(a.get(9).split(",")),
                a.get(10).equals("-")
                        ? List.of()
                        : Arrays.stream(a.get(10).split(","))
                                .map(BundleWebhook::parse)
                                .toList(),
                a.subList(11, a.size()));
    }

    /** Writes the bundle; returns the files written. */
    static List<Path> write(Request r) {
        OperatorBundle bundle = new OperatorBundle(
                r.name(),
                r.namespace(),
                r.image(),
                r.replicas(),
                r.crdClasses().isEmpty() ? List.of() : CrdGenerator.crds(r.classpath(), r.crdClasses()),
                rbac(r),
                r.args(),
                r.webhooks(),
                r.leaseName());
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(r.out());
            written.add(Files.writeString(r.out().resolve(r.name() + ".yaml"), bundle.yaml(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + r.out() + ": " + e.getMessage(), e);
        }
        written.addAll(bundle.writeKustomize(r.out().resolve("kustomize")));
        written.addAll(bundle.writeHelmChart(r.out().resolve("helm").resolve(r.name())));
        return written;
    }

    private static List<ObjectNode> rbac(Request r) {
        try (URLClassLoader loader = ClassPaths.loader(r.classpath(), BundleMain.class.getClassLoader())) {
            Class<?> manifests = ClassPaths.load(RBAC_MANIFESTS, loader, r.classpath());
            List<Class<?>> setups = new ArrayList<>();
            for (String setup : r.setups()) {
                setups.add(ClassPaths.load(setup, loader, r.classpath()));
            }
            Method forControllers =
                    manifests.getMethod("forControllers", List.class, String.class, String.class, String.class);
            Object rbac = forControllers.invoke(null, setups, r.name(), r.namespace(), r.leaseName());
            String yaml = (String) manifests.getMethod("yaml").invoke(rbac);
            return KubeYaml.readAll(yaml).stream().map(DynamicObject::node).toList();
        } catch (InvocationTargetException e) {
            throw new CodegenException(e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new CodegenException("the project's kubeloop-controller has no " + RBAC_MANIFESTS
                    + ".forControllers: is kubeloop-controller on its class path, at kubeloop's version? (" + e + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
