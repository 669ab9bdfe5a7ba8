package io.kubeloop.testing.crd;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where CustomResourceDefinitions to install come from: a file or a directory of files, a class path
 * resource, text, or record types annotated {@link io.kubeloop.api.Kind @Kind} and
 * {@link io.kubeloop.api.crd.CustomResource @CustomResource}, turned into CRDs by kubeloop-codegen's
 * {@code CrdGenerator} (as {@code kubeloop-maven-plugin:generate-crds} does at build time).
 *
 * {@snippet :
 * CrdSource.file(Path.of("src/main/resources/crds"));              // every .yaml, .yml, .json in it
 * CrdSource.resource("META-INF/fabric8/foos.example.com-v1.yml");  // e.g. fabric8's crd-generator output
 * CrdSource.generatedFrom(Foo.class);                             // from the annotated record
 * }
 *
 * <p>A file, resource or text holds one or more documents (YAML separated by {@code ---}, or JSON); each
 * must be an {@code apiextensions.k8s.io/v1} CustomResourceDefinition.
 */
public sealed interface CrdSource {

    /** A YAML or JSON file, or a directory: its {@code .yaml}, {@code .yml} and {@code .json} files in name order. */
    static CrdSource file(Path path) {
        return new File(path);
    }

    /** A class path resource, found with the thread's context class loader (or this class's). */
    static CrdSource resource(String name) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return new Resource(name, context != null ? context : CrdSource.class.getClassLoader());
    }

    /** A class path resource found with {@code loader}. */
    static CrdSource resource(String name, ClassLoader loader) {
        return new Resource(name, loader);
    }

    /** CRDs as text: YAML (documents separated by {@code ---}) or JSON. */
    static CrdSource text(String yamlOrJson) {
        return new Text(yamlOrJson);
    }

    /**
     * The CRDs of {@code @Kind} types (one CRD per group and kind; types of one kind are its versions), as
     * kubeloop-codegen's {@code CrdGenerator} writes them.
     */
    static CrdSource generatedFrom(Class<?>... types) {
        return new Generated(List.of(types));
    }

    /**
     * An entry of {@link io.kubeloop.testing.junit.EmbeddedApiServerTest#crds()}: {@code classpath:NAME}
     * is a class path resource (found with {@code loader}), anything else a file or directory path.
     */
    static CrdSource parse(String location, ClassLoader loader) {
        if (location.startsWith("classpath:")) {
            String name = location.substring("classpath:".length());
            return new Resource(name.startsWith("/") ? name.substring(1) : name, loader);
        }
        return new File(Path.of(location));
    }

    /**
     * A file or a directory of files.
     *
     * @param path the file or directory
     */
    record File(Path path) implements CrdSource {
        public File {
            Objects.requireNonNull(path, "path");
        }
    }

    /**
     * A class path resource.
     *
     * @param name the resource name, without a leading {@code /}
     * @param loader the class loader that finds it
     */
    record Resource(String name, ClassLoader loader) implements CrdSource {
        public Resource {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(loader, "loader");
        }
    }

    /**
     * CRDs as YAML or JSON text.
     *
     * @param text the documents
     */
    record Text(String text) implements CrdSource {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * CRDs generated from annotated types.
     *
     * @param types {@code @Kind} types implementing {@code KubernetesObject}
     */
    record Generated(List<Class<?>> types) implements CrdSource {
        public Generated {
            types = List.copyOf(types);
        }
    }
}
