package io.kubeloop.codegen;

import io.kubeloop.api.Kind;
import io.kubeloop.api.KubernetesObject;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.crd.CustomResource;
import io.kubeloop.api.crd.PrinterColumn;
import io.kubeloop.api.crd.Scale;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.codegen.internal.ClassPaths;
import io.kubeloop.codegen.internal.SchemaWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@code apiextensions.k8s.io/v1} CustomResourceDefinitions from Java types annotated with
 * {@link Kind @Kind} (and optionally {@link CustomResource @CustomResource}, {@link PrinterColumn
 * @PrinterColumn} and the schema annotations of {@code io.kubeloop.api.crd}):
 *
 * {@snippet :
 * List<ObjectNode> crds = CrdGenerator.crds(List.of(Foo.class));
 * String yaml = CrdGenerator.yaml(crds.getFirst());
 * }
 *
 * <p>Types of the same group and kind are the versions of one CRD, in the order given; exactly
 * one of several versions is the storage version. The CRD's {@code metadata.annotations} are those of
 * {@link CustomResource#annotations()}, which every version declares alike. The schema is structural: every property has a
 * type (see {@link SchemaWriter} for the mapping of Java types), so the API server accepts it and
 * prunes unknown fields. Stateless and thread-safe.
 */
public final class CrdGenerator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** A qualified name, as an annotation's key must be: an optional DNS subdomain and "/", then a name. */
    private static final Pattern ANNOTATION_KEY = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    /** An empty scheme: it maps a type by its {@code @Kind} alone. */
    private static final Scheme UNREGISTERED = Scheme.builder().build();

    private CrdGenerator() {}

    /**
     * One CRD per group and kind among {@code types}, in order of first appearance.
     *
     * @param types {@code @Kind} types implementing {@link KubernetesObject}
     * @return new CRD trees
     * @throws CodegenException for a type that is not a kind, a schema that cannot be written, or
     *     versions that disagree (scope, plural, names) or do not have exactly one storage version
     */
    public static List<ObjectNode> crds(List<Class<?>> types) {
        Map<String, List<Class<?>>> byKind = new LinkedHashMap<>();
        for (Class<?> type : types) {
            Kind kind = type.getAnnotation(Kind.class);
            if (kind == null || !KubernetesObject.class.isAssignableFrom(type)) {
                throw new CodegenException(
                        type.getName() + " is not a kind: annotate it with @Kind and implement" + " KubernetesObject");
            }
            if (kind.group().isEmpty() || !kind.group().contains(".")) {
                throw new CodegenException(type.getName() + ": a custom resource's group must be a domain name"
                        + " with a dot, e.g. example.com; got \"" + kind.group() + "\"");
            }
            byKind.computeIfAbsent(kind.group() + "/" + kindName(type, kind), k -> new ArrayList<>())
                    .add(type);
        }
        List<ObjectNode> crds = new ArrayList<>();
        for (List<Class<?>> versions : byKind.values()) {
            crds.add(crd(versions));
        }
        return crds;
    }

    /** The CRD of one kind's versions. */
    private static ObjectNode crd(List<Class<?>> versions) {
        Class<?> first = versions.getFirst();
        Kind kind = first.getAnnotation(Kind.class);
        String kindName = kindName(first, kind);
        String plural = plural(first);
        CustomResource names = first.getAnnotation(CustomResource.class);
        String singular =
                names != null && !names.singular().isEmpty() ? names.singular() : kindName.toLowerCase(Locale.ROOT);

        ObjectNode crd = NODES.objectNode();
        crd.put("apiVersion", "apiextensions.k8s.io/v1");
        crd.put("kind", "CustomResourceDefinition");
        ObjectNode metadata = crd.putObject("metadata");
        metadata.put("name", plural + "." + kind.group());
        Map<String, String> annotations = annotations(first, names);
        if (!annotations.isEmpty()) {
            ObjectNode node = metadata.putObject("annotations");
            annotations.forEach(node::put);
        }
        ObjectNode spec = crd.putObject("spec");
        spec.put("group", kind.group());
        ObjectNode namesNode = spec.putObject("names");
        namesNode.put("kind", kindName);
        namesNode.put("listKind", kindName + "List");
        namesNode.put("plural", plural);
        namesNode.put("singular", singular);
        if (names != null && names.shortNames().length > 0) {
            strings(namesNode.putArray("shortNames"), names.shortNames());
        }
        if (names != null && names.categories().length > 0) {
            strings(namesNode.putArray("categories"), names.categories());
        }
        spec.put("scope", kind.namespaced() ? "Namespaced" : "Cluster");
        ArrayNode versionNodes = spec.putArray("versions");
        List<String> storage = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Class<?> type : versions) {
            Kind k = type.getAnnotation(Kind.class);
            check(first, type, "plural", plural, plural(type));
            check(first, type, "scope", kind.namespaced(), k.namespaced());
            CustomResource cr = type.getAnnotation(CustomResource.class);
            check(first, type, "names", describeNames(names), describeNames(cr));
            check(first, type, "annotations", annotations, annotations(type, cr));
            if (seen.contains(k.version())) {
                throw new CodegenException(
                        type.getName() + ": version " + k.version() + " of " + kindName + " is declared twice");
            }
            seen.add(k.version());
            boolean isStorage = cr == null || cr.storage();
            if (isStorage) {
                storage.add(type.getName());
            }
            versionNodes.add(version(type, k, cr, isStorage));
        }
        if (storage.size() != 1) {
            throw new CodegenException(kindName + "." + kind.group() + " must have exactly one storage version;"
                    + " found " + storage.size() + ": " + storage
                    + " (mark the others @CustomResource(storage = false))");
        }
        return crd;
    }

    private static ObjectNode version(Class<?> type, Kind kind, CustomResource cr, boolean storage) {
        ObjectNode version = NODES.objectNode();
        version.put("name", kind.version());
        version.put("served", cr == null || cr.served());
        version.put("storage", storage);
        if (cr != null && cr.deprecated()) {
            version.put("deprecated", true);
            if (!cr.deprecationWarning().isEmpty()) {
                version.put("deprecationWarning", cr.deprecationWarning());
            }
        }
        version.putObject("schema").set("openAPIV3Schema", new SchemaWriter().rootSchema(type));
        if (cr != null && (cr.status() || cr.scale().length > 0)) {
            ObjectNode subresources = version.putObject("subresources");
            if (cr.status()) {
                subresources.putObject("status");
            }
            if (cr.scale().length > 1) {
                throw new CodegenException(type.getName() + ": at most one @Scale");
            }
            for (Scale scale : cr.scale()) {
                ObjectNode node = subresources.putObject("scale");
                node.put("specReplicasPath", scale.specReplicasPath());
                node.put("statusReplicasPath", scale.statusReplicasPath());
                if (!scale.labelSelectorPath().isEmpty()) {
                    node.put("labelSelectorPath", scale.labelSelectorPath());
                }
            }
        }
        PrinterColumn[] columns = type.getAnnotationsByType(PrinterColumn.class);
        if (columns.length > 0) {
            ArrayNode nodes = version.putArray("additionalPrinterColumns");
            for (PrinterColumn column : columns) {
                ObjectNode node = nodes.addObject();
                node.put("name", column.name());
                node.put("type", column.type());
                if (!column.format().isEmpty()) {
                    node.put("format", column.format());
                }
                if (!column.description().isEmpty()) {
                    node.put("description", column.description());
                }
                if (column.priority() != 0) {
                    node.put("priority", column.priority());
                }
                node.put("jsonPath", column.jsonPath());
            }
        }
        return version;
    }

    /**
     * The CRD as YAML, as {@code kubectl} prints it.
     *
     * @param crd a CRD tree
     * @return one YAML document
     */
    public static String yaml(ObjectNode crd) {
        return KubeYaml.write(crd);
    }

    /**
     * The CRDs of the named {@code @Kind} classes, loaded from {@code classpath} (directories and jars
     * separated by the platform's path separator; the generator's own class loader is their parent) —
     * what {@code kubeloop generate crds} and the Maven goal run.
     *
     * @param classpath where the classes are; null or blank for the generator's own class path
     * @param classNames fully qualified class names
     * @throws CodegenException when an entry of the class path does not exist, a class cannot be loaded
     *         (with the class path in the message), or {@link #crds(List)} refuses a type
     */
    public static List<ObjectNode> crds(String classpath, List<String> classNames) {
        try (URLClassLoader loader = ClassPaths.loader(classpath, CrdGenerator.class.getClassLoader())) {
            List<Class<?>> types = new ArrayList<>();
            for (String name : classNames) {
                types.add(ClassPaths.load(name, loader, classpath));
            }
            return crds(types);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes each CRD to {@code directory} (created when missing) as {@code <metadata.name>.yaml}.
     *
     * @return the files written, in the order of {@code crds}
     */
    public static List<Path> write(List<ObjectNode> crds, Path directory) throws IOException {
        Files.createDirectories(directory);
        List<Path> files = new ArrayList<>();
        for (ObjectNode crd : crds) {
            Path file = directory.resolve(crd.path("metadata").path("name").asString() + ".yaml");
            Files.writeString(file, yaml(crd));
            files.add(file);
        }
        return files;
    }

    /** The resource name of a {@code @Kind} type: as declared, else guessed from the kind. */
    private static String plural(Class<?> type) {
        return UNREGISTERED.mappingOf(type).orElseThrow().resource();
    }

    private static String kindName(Class<?> type, Kind kind) {
        return kind.kind().isEmpty() ? type.getSimpleName() : kind.kind();
    }

    /** The CRD annotations {@code cr} declares for {@code type}, in order. */
    private static Map<String, String> annotations(Class<?> type, CustomResource cr) {
        Map<String, String> out = new LinkedHashMap<>();
        if (cr == null) {
            return out;
        }
        for (String annotation : cr.annotations()) {
            int eq = annotation.indexOf('=');
            String key = eq < 0 ? annotation : annotation.substring(0, eq);
            int slash = key.indexOf('/');
            if (eq < 0 || !ANNOTATION_KEY.matcher(key).matches() || key.length() - slash - 1 > 63 || slash > 253) {
                throw new CodegenException(type.getName() + ": @CustomResource annotation \"" + annotation
                        + "\" is not key=value with a qualified name as its key (e.g."
                        + " \"api-approved.kubernetes.io=unapproved, experimental-only\")");
            }
            if (out.put(key, annotation.substring(eq + 1)) != null) {
                throw new CodegenException(type.getName() + ": @CustomResource declares annotation " + key + " twice");
            }
        }
        return out;
    }

    private static String describeNames(CustomResource cr) {
        if (cr == null) {
            return "singular=, shortNames=[], categories=[]";
        }
        return "singular=" + cr.singular() + ", shortNames=" + Arrays.toString(cr.shortNames()) + ", categories="
                + Arrays.toString(cr.categories());
    }

    private static void check(Class<?> first, Class<?> other, String what, Object a, Object b) {
        if (!a.equals(b)) {
            throw new CodegenException("versions of one kind must agree on " + what + ": " + first.getName() + " has "
                    + a + ", " + other.getName() + " has " + b);
        }
    }

    private static void strings(ArrayNode array, String[] values) {
        for (String value : values) {
            array.add(value);
        }
    }
}
