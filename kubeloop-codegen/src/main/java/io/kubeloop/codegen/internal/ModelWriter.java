package io.kubeloop.codegen.internal;

import static io.kubeloop.codegen.internal.JavaText.javadoc;
import static io.kubeloop.codegen.internal.JavaText.stringArray;

import io.kubeloop.codegen.CodegenException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Writes the Java source of one served version of one kind: a record for the kind with nested
 * records for nested object schemas and nested enums for string enums, annotated so that
 * {@link SchemaWriter} writes the same schema back (descriptions become Javadoc and are not kept).
 *
 * <p>It runs the phases in order: {@link SchemaMapper} maps the schema to declarations ({@link RecordDecl},
 * {@link EnumDecl}), then {@link RecordRenderer} and {@link ReaderRenderer} render them; this class adds
 * the kind's own components and annotations and the compilation unit's package and imports.
 *
 * <p>Not thread-safe: one instance per source file.
 */
public final class ModelWriter {

    /**
     * kubectl's record of what a client last applied: not part of the definition, so not carried into the
     * records (a CRD read back from a cluster has it).
     */
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final ImportSet imports = new ImportSet();

    /** The class name of a kind's record: the kind as a Java identifier. */
    public static String className(String kind) {
        return JavaNames.type(kind);
    }

    /**
     * The source of the kind's record.
     *
     * @param packageName the Java package
     * @param group the API group
     * @param annotations the CRD's {@code metadata.annotations} (missing: none)
     * @param names the CRD's {@code spec.names}
     * @param namespaced whether the scope is {@code Namespaced}
     * @param version the version entry of {@code spec.versions}
     * @return the compilation unit
     */
    public String write(
            String packageName,
            String group,
            JsonNode annotations,
            JsonNode names,
            boolean namespaced,
            JsonNode version) {
        String kind = names.path("kind").asString();
        String className = JavaNames.type(kind);
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        if (!schema.isObject()) {
            throw new CodegenException(
                    "version " + version.path("name").asString() + " of " + kind + " has no schema.openAPIV3Schema");
        }
        RecordDecl root = new RecordDecl(className, null, javadoc(schema, "The " + kind + " kind."));
        root.nestedNames.add(className.toLowerCase(Locale.ROOT));
        root.nestedNames.add("jsonreader");
        root.components.add(new Component(
                "apiVersion", "apiVersion", List.of(), "String", "the kind's API version", Read.input("string")));
        root.components.add(new Component("kind", "kind", List.of(), "String", "the kind", Read.input("string")));
        imports.add(ImportSet.API + "ObjectMeta");
        imports.add(ImportSet.API + "KubernetesObject");
        root.components.add(new Component(
                "metadata",
                "metadata",
                List.of(),
                "ObjectMeta",
                "the object's metadata: name, namespace, labels…",
                Read.input("objectMeta")));
        root.componentNames.addAll(List.of("apiversion", "kind", "metadata"));
        for (JsonNode required : schema.path("required")) {
            for (int i = 0; i < 3; i++) {
                Component c = root.components.get(i);
                if (c.jsonName().equals(required.asString())) {
                    imports.add(ImportSet.CRD + "Required");
                    root.components.set(
                            i,
                            new Component(
                                    c.javaName(),
                                    c.jsonName(),
                                    List.of("@Required"),
                                    c.type(),
                                    c.description(),
                                    c.read()));
                }
            }
        }
        SchemaMapper mapper = new SchemaMapper(imports);
        mapper.findRepeatedShapes(schema);
        mapper.fillRecord(root, schema, Set.of("apiVersion", "kind", "metadata"));
        root.typeAnnotations.addAll(0, kindAnnotations(group, annotations, names, namespaced, version, className));
        root.typeAnnotations.addAll(mapper.schemaAnnotations(schema, true));

        StringBuilder body = new StringBuilder();
        String apiVersion = group + "/" + version.path("name").asString();
        new RecordRenderer(imports, new ReaderRenderer(imports, mapper.readers()))
                .writeRecord(body, root, 0, apiVersion, namespaced);
        StringBuilder out = new StringBuilder();
        out.append("package ").append(packageName).append(";\n\n");
        for (String i : imports.sorted()) {
            out.append("import ").append(i).append(";\n");
        }
        out.append('\n').append(body);
        return out.toString();
    }

    private List<String> kindAnnotations(
            String group,
            JsonNode crdAnnotations,
            JsonNode names,
            boolean namespaced,
            JsonNode version,
            String className) {
        List<String> out = new ArrayList<>();
        imports.add(ImportSet.API + "Kind");
        String kind = names.path("kind").asString();
        StringBuilder k = new StringBuilder("@Kind(group = ")
                .append(literal(group))
                .append(", version = ")
                .append(literal(version.path("name").asString()));
        if (!kind.equals(className)) {
            k.append(", kind = ").append(literal(kind));
        }
        k.append(", plural = ").append(literal(names.path("plural").asString()));
        if (!namespaced) {
            k.append(", namespaced = false");
        }
        out.add(k.append(')').toString());

        List<String> attributes = new ArrayList<>();
        String singular = names.path("singular").asString("");
        if (!singular.isEmpty() && !singular.equals(kind.toLowerCase(Locale.ROOT))) {
            attributes.add("singular = " + literal(singular));
        }
        if (names.path("shortNames").size() > 0) {
            attributes.add("shortNames = " + stringArray(names.path("shortNames")));
        }
        if (names.path("categories").size() > 0) {
            attributes.add("categories = " + stringArray(names.path("categories")));
        }
        List<String> keyValues = new ArrayList<>();
        for (Map.Entry<String, JsonNode> annotation : crdAnnotations.properties()) {
            if (!annotation.getKey().equals(LAST_APPLIED)) {
                keyValues.add(literal(
                        annotation.getKey() + "=" + annotation.getValue().asString("")));
            }
        }
        if (!keyValues.isEmpty()) {
            attributes.add("annotations = "
                    + (keyValues.size() == 1 ? keyValues.getFirst() : "{" + String.join(", ", keyValues) + "}"));
        }
        if (!version.path("served").asBoolean(true)) {
            attributes.add("served = false");
        }
        if (!version.path("storage").asBoolean(true)) {
            attributes.add("storage = false");
        }
        if (version.path("deprecated").asBoolean(false)) {
            attributes.add("deprecated = true");
            if (version.has("deprecationWarning")) {
                attributes.add("deprecationWarning = "
                        + literal(version.path("deprecationWarning").asString()));
            }
        }
        JsonNode subresources = version.path("subresources");
        if (subresources.has("status")) {
            attributes.add("status = true");
        }
        if (subresources.has("scale")) {
            imports.add(ImportSet.CRD + "Scale");
            JsonNode scale = subresources.path("scale");
            StringBuilder s = new StringBuilder("scale = @Scale(specReplicasPath = ")
                    .append(literal(scale.path("specReplicasPath").asString()))
                    .append(", statusReplicasPath = ")
                    .append(literal(scale.path("statusReplicasPath").asString()));
            if (scale.has("labelSelectorPath")) {
                s.append(", labelSelectorPath = ")
                        .append(literal(scale.path("labelSelectorPath").asString()));
            }
            attributes.add(s.append(')').toString());
        }
        if (!attributes.isEmpty()) {
            imports.add(ImportSet.CRD + "CustomResource");
            out.add("@CustomResource(" + String.join(", ", attributes) + ")");
        }
        for (JsonNode column : version.path("additionalPrinterColumns")) {
            imports.add(ImportSet.CRD + "PrinterColumn");
            StringBuilder c = new StringBuilder("@PrinterColumn(name = ")
                    .append(literal(column.path("name").asString()))
                    .append(", type = ")
                    .append(literal(column.path("type").asString()))
                    .append(", jsonPath = ")
                    .append(literal(column.path("jsonPath").asString()));
            if (column.has("description")) {
                c.append(", description = ")
                        .append(literal(column.path("description").asString()));
            }
            if (column.has("format")) {
                c.append(", format = ").append(literal(column.path("format").asString()));
            }
            if (column.path("priority").asInt(0) != 0) {
                c.append(", priority = ").append(column.path("priority").asInt());
            }
            out.add(c.append(')').toString());
        }
        return out;
    }

    /** See {@link JavaText#firstSentence}. */
    static String firstSentence(String text) {
        return JavaText.firstSentence(text);
    }

    /** See {@link JavaText#escapeJavadoc}. */
    static String escapeJavadoc(String text) {
        return JavaText.escapeJavadoc(text);
    }

    /** See {@link JavaText#literal}. */
    static String literal(String s) {
        return JavaText.literal(s);
    }
}
