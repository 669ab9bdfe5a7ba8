package io.kubeloop.codegen.internal;

import static io.kubeloop.codegen.internal.JavaText.escapeJavadoc;
import static io.kubeloop.codegen.internal.JavaText.literal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Writes the compilation unit of one definition of Kubernetes' OpenAPI as an immutable record of the
 * built-in models: a component per property (for a kind {@code apiVersion}, {@code kind} and {@code
 * metadata} first, the rest in the schema's order) and one for the fields the definition does not name,
 * kept as read and written back; a canonical constructor that freezes every list and map; {@code with}
 * methods, a {@link BuilderRenderer builder} and {@code toBuilder()}; the generated reader; for a resource's
 * kind, {@code @Kind}, its {@code API_VERSION} and {@code KIND} and an {@code of} factory.
 *
 * <p>Invariant: the text depends only on the definitions, so a release gives the same sources byte for
 * byte. Not thread-safe: one instance per compilation unit.
 */
final class DefinitionWriter {

    /** Names a component must not take: the record's own methods and {@code Object}'s. */
    private static final Set<String> TAKEN = Set.of(
            "builder",
            "toBuilder",
            "hashCode",
            "toString",
            "equals",
            "getClass",
            "notify",
            "notifyAll",
            "wait",
            "clone",
            "finalize",
            "of");

    private static final String MICRO_TIME =
            "@JsonFormat(shape = JsonFormat.Shape.STRING, pattern = \"yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX\", timezone = \"UTC\")";

    private final ImportSet imports = new ImportSet();
    private final String unitPackage;
    private final ModelTypes types;
    private final Map<String, JsonNode> definitions;

    /**
     * @param basePackage the package the group-version packages go under
     * @param unitPackage the record's package
     * @param packageNames the simple names of the records of that package
     * @param definitions every definition by name
     */
    DefinitionWriter(
            String basePackage, String unitPackage, Set<String> packageNames, Map<String, JsonNode> definitions) {
        this.unitPackage = unitPackage;
        this.types = new ModelTypes(imports, basePackage, unitPackage, packageNames);
        this.definitions = definitions;
    }

    /**
     * The source of the record for {@code name}.
     *
     * @param resource the resource whose kind it is, or null
     */
    String write(String name, JsonNode schema, OpenApiDocuments.Resource resource) {
        String className = ModelTypes.classOf(name);
        RecordDecl record = new RecordDecl(className, null, javadoc(schema, resource));
        TAKEN.forEach(record.componentNames::add);
        List<ModelType> componentTypes = new ArrayList<>();
        List<Map.Entry<String, JsonNode>> properties = new ArrayList<>();
        schema.path("properties").properties().forEach(properties::add);
        if (resource != null) {
            List<String> first = List.of("apiVersion", "kind", "metadata");
            properties.sort((a, b) -> Integer.compare(rank(first, a.getKey()), rank(first, b.getKey())));
        }
        for (Map.Entry<String, JsonNode> property : properties) {
            ModelType type = types.of(property.getValue(), definitions);
            String javaName = record.claimComponentName(JavaNames.property(property.getKey()));
            List<String> annotations = new ArrayList<>();
            if (!javaName.equals(property.getKey())) {
                imports.add("com.fasterxml.jackson.annotation.JsonProperty");
                annotations.add("@JsonProperty(" + literal(property.getKey()) + ")");
            }
            if (ModelTypes.isMicroTime(property.getValue())) {
                imports.add("com.fasterxml.jackson.annotation.JsonFormat");
                annotations.add(MICRO_TIME);
            }
            record.components.add(new Component(
                    javaName,
                    property.getKey(),
                    annotations,
                    type.text(),
                    property.getValue().path("description").asString("").strip(),
                    type.read()));
            componentTypes.add(type);
        }
        imports.add("com.fasterxml.jackson.annotation.JsonAnySetter");
        imports.add("com.fasterxml.jackson.annotation.JsonAnyGetter");
        imports.add("java.util.Map");
        record.components.add(new Component(
                record.claimComponentName("unknownFields"),
                null,
                List.of("@JsonAnySetter", "@JsonAnyGetter"),
                "Map<String, Object>",
                "fields this model does not name (a newer server's), kept as read and written back",
                null));
        componentTypes.add(new ModelType("Map<String, Object>", "Map", null, ModelType.Shape.UNTYPED, null, null));

        StringBuilder body = new StringBuilder();
        writeRecord(body, record, componentTypes, resource);
        StringBuilder out = new StringBuilder("package ").append(unitPackage).append(";\n\n");
        for (String i : imports.sorted()) {
            out.append("import ").append(i).append(";\n");
        }
        return out.append('\n').append(body).toString();
    }

    private static int rank(List<String> first, String name) {
        int i = first.indexOf(name);
        return i < 0 ? first.size() : i;
    }

    private void writeRecord(
            StringBuilder out, RecordDecl record, List<ModelType> componentTypes, OpenApiDocuments.Resource resource) {
        out.append("/**\n");
        for (String line : record.javadoc.split("\n", -1)) {
            out.append(line.isEmpty() ? " *" : " * " + line).append('\n');
        }
        out.append(" *\n");
        for (Component c : record.components) {
            String text = c.description().isEmpty() ? "(no description)" : c.description();
            out.append(" * @param ")
                    .append(c.javaName())
                    .append(' ')
                    .append(escapeJavadoc(text.replaceAll("\\s+", " ")))
                    .append('\n');
        }
        out.append(" */\n");
        imports.add("tools.jackson.databind.annotation.JsonDeserialize");
        out.append("@JsonDeserialize(using = JsonReaders.Deserializer.class)\n");
        imports.add(ImportSet.API + "Immutable");
        out.append("@Immutable\n");
        if (resource != null) {
            imports.add(ImportSet.API + "Kind");
            out.append("@Kind(group = ")
                    .append(literal(resource.group()))
                    .append(", version = ")
                    .append(literal(resource.version()));
            if (!resource.kind().equals(record.name)) {
                out.append(", kind = ").append(literal(resource.kind()));
            }
            out.append(", plural = ").append(literal(resource.plural()));
            if (!resource.namespaced()) {
                out.append(", namespaced = false");
            }
            out.append(")\n");
        }
        out.append("public record ").append(record.name).append('(');
        for (int i = 0; i < record.components.size(); i++) {
            Component c = record.components.get(i);
            out.append(i == 0 ? "\n" : ",\n").append("        ");
            for (String a : c.annotations()) {
                out.append(a).append(' ');
            }
            out.append(c.type()).append(' ').append(c.javaName());
        }
        out.append(')');
        List<String> names = record.components.stream().map(Component::javaName).toList();
        boolean object = resource != null && names.containsAll(List.of("apiVersion", "kind", "metadata"));
        if (object) {
            imports.add(ImportSet.API + "KubernetesObject");
            out.append("\n        implements KubernetesObject");
        }
        out.append(" {\n");
        if (resource != null) {
            String apiVersion =
                    resource.group().isEmpty() ? resource.version() : resource.group() + "/" + resource.version();
            out.append("\n    /** The API version of this kind: {@value}. */\n")
                    .append("    public static final String API_VERSION = ")
                    .append(literal(apiVersion))
                    .append(";\n\n    /** The kind: {@value}. */\n")
                    .append("    public static final String KIND = ")
                    .append(literal(resource.kind()))
                    .append(";\n");
        }
        writeConstructor(out, record, componentTypes);
        if (object) {
            writeOf(out, record, resource.namespaced());
        }
        out.append("\n    /** A builder of a new ")
                .append(record.name)
                .append(resource != null ? ", its API version and kind set" : "")
                .append(". */\n    public static Builder builder() {\n        return new Builder();\n    }\n")
                .append("\n    /** A builder that starts from this ")
                .append(record.name)
                .append("'s fields. */\n    public Builder toBuilder() {\n        return new Builder(this);\n    }\n");
        for (Component c : record.components) {
            out.append("\n    /** This ")
                    .append(record.name)
                    .append(" with {@code ")
                    .append(c.javaName())
                    .append("} replaced. */\n    public ")
                    .append(record.name)
                    .append(" with")
                    .append(JavaNames.capitalize(c.javaName()))
                    .append('(')
                    .append(c.type())
                    .append(' ')
                    .append(c.javaName())
                    .append(") {\n        return new ")
                    .append(record.name)
                    .append('(')
                    .append(String.join(", ", names))
                    .append(");\n    }\n");
        }
        new ReaderRenderer(imports, List.of()).writeReader(out, record, "    ", "static ");
        new BuilderRenderer(imports).write(out, record, componentTypes, object);
        out.append("}\n");
    }

    /** The canonical constructor: every list, map and untyped value frozen ({@code Frozen}). */
    private void writeConstructor(StringBuilder out, RecordDecl record, List<ModelType> componentTypes) {
        imports.add("io.kubeloop.api.json.Frozen");
        out.append("\n    /** Freezes the lists and maps it is given: a record holds nothing a caller can change. */\n")
                .append("    public ")
                .append(record.name)
                .append(" {\n");
        for (int i = 0; i < record.components.size(); i++) {
            ModelType type = componentTypes.get(i);
            String name = record.components.get(i).javaName();
            String freeze = type.freezesDeeply()
                    ? "deep"
                    : switch (type.shape()) {
                        case LIST -> "list";
                        case MAP -> "map";
                        default -> null;
                    };
            if (freeze != null) {
                out.append("        ")
                        .append(name)
                        .append(" = Frozen.")
                        .append(freeze)
                        .append('(')
                        .append(name)
                        .append(");\n");
            }
        }
        out.append("    }\n");
    }

    private static void writeOf(StringBuilder out, RecordDecl record, boolean namespaced) {
        out.append("\n    /** A new ")
                .append(record.name)
                .append(" with its API version, kind, ")
                .append(namespaced ? "namespace " : "")
                .append("and name set. */\n    public static ")
                .append(record.name)
                .append(" of(")
                .append(namespaced ? "String namespace, String name" : "String name")
                .append(") {\n        return builder().metadata(ObjectMeta.of(")
                .append(namespaced ? "namespace" : "null")
                .append(", name)).build();\n    }\n");
    }

    private static String javadoc(JsonNode schema, OpenApiDocuments.Resource resource) {
        String text = JavaText.javadoc(schema, null);
        if (resource != null) {
            text += "\n\n<p>Resource: " + resource.plural() + " ("
                    + (resource.namespaced() ? "namespaced" : "cluster-scoped") + ").";
        }
        return text;
    }
}
