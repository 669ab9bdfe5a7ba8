package io.kubeloop.codegen.internal;

import static io.kubeloop.codegen.internal.JavaText.annotate;
import static io.kubeloop.codegen.internal.JavaText.erase;
import static io.kubeloop.codegen.internal.JavaText.escapeJavadoc;
import static io.kubeloop.codegen.internal.JavaText.firstSentence;
import static io.kubeloop.codegen.internal.JavaText.literal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders the source of a kind's record and of its nested records and enums: Javadoc, annotations, the
 * canonical components, the factory and {@code with} methods, leaving each record's reader to {@link
 * ReaderRenderer}.
 *
 * <p>Invariant: the text it writes depends only on the declarations, so the same CRD gives the same source,
 * byte for byte. Not thread-safe: one instance per source file.
 */
final class RecordRenderer {

    private final ImportSet imports;
    private final ReaderRenderer readers;

    /** A renderer whose imports go to {@code imports} and whose records' readers {@code readers} writes. */
    RecordRenderer(ImportSet imports, ReaderRenderer readers) {
        this.imports = imports;
        this.readers = readers;
    }

    /**
     * Writes {@code record} at {@code depth} (0: the kind's record, with its constants, {@code of} factory and
     * Jackson deserializer), then its nested types. Adds the map of unknown properties to a record that keeps
     * them, as its last component.
     */
    void writeRecord(StringBuilder out, RecordDecl record, int depth, String apiVersion, boolean namespaced) {
        String indent = "    ".repeat(depth);
        boolean root = depth == 0;
        if (record.keepsUnknown) {
            imports.add("com.fasterxml.jackson.annotation.JsonAnySetter");
            imports.add("com.fasterxml.jackson.annotation.JsonAnyGetter");
            imports.add("java.util.Map");
            String name = record.claimComponentName("additionalProperties");
            record.components.add(new Component(
                    name,
                    null,
                    List.of("@JsonAnySetter", "@JsonAnyGetter"),
                    "Map<String, Object>",
                    "fields the schema does not name, kept as read (the API server keeps them too)",
                    null));
        }
        out.append(indent).append("/**\n");
        for (String line : record.javadoc.split("\n", -1)) {
            out.append(indent).append(line.isEmpty() ? " *" : " * " + line).append('\n');
        }
        boolean first = true;
        for (Component c : record.components) {
            if (c.description().isEmpty()) {
                continue;
            }
            if (first) {
                out.append(indent).append(" *\n");
                first = false;
            }
            out.append(indent)
                    .append(" * @param ")
                    .append(c.javaName())
                    .append(' ')
                    .append(escapeJavadoc(firstSentence(c.description())))
                    .append('\n');
        }
        out.append(indent).append(" */\n");
        if (root) {
            imports.add("tools.jackson.databind.annotation.JsonDeserialize");
            out.append(indent)
                    .append("@JsonDeserialize(using = ")
                    .append(record.name)
                    .append(".JsonReader.class)\n");
        }
        for (String a : record.typeAnnotations) {
            out.append(indent).append(a).append('\n');
        }
        out.append(indent).append("public record ").append(record.name).append('(');
        for (int i = 0; i < record.components.size(); i++) {
            Component c = record.components.get(i);
            out.append(i == 0 ? "\n" : ",\n").append(indent).append("        ");
            List<String> onType = new ArrayList<>();
            for (String a : c.annotations()) {
                if (a.startsWith("@JsonProperty(")) {
                    out.append(a).append(' '); // a declaration annotation only
                } else {
                    onType.add(a);
                }
            }
            out.append(annotate(onType, c.type())).append(' ').append(c.javaName());
        }
        out.append(")");
        if (root) {
            out.append("\n").append(indent).append("        implements KubernetesObject");
        }
        out.append(" {\n");
        String inner = indent + "    ";
        List<String> names = record.components.stream().map(Component::javaName).toList();
        if (root) {
            out.append('\n')
                    .append(inner)
                    .append("/** The API version of this kind: {@value}. */\n")
                    .append(inner)
                    .append("public static final String API_VERSION = ")
                    .append(literal(apiVersion))
                    .append(";\n\n")
                    .append(inner)
                    .append("/** The kind: {@value}. */\n")
                    .append(inner)
                    .append("public static final String KIND = ")
                    .append(literal(record.name))
                    .append(";\n\n");
            readers.writeReaderTable(out, inner, record);
            String params = namespaced ? "String namespace, String name" : "String name";
            out.append(inner)
                    .append("/** A new ")
                    .append(record.name)
                    .append(" with its API version, kind, ")
                    .append(namespaced ? "namespace " : "")
                    .append("and name set. */\n")
                    .append(inner)
                    .append("public static ")
                    .append(record.name)
                    .append(" of(")
                    .append(params)
                    .append(") {\n")
                    .append(inner)
                    .append("    return new ")
                    .append(record.name)
                    .append("(API_VERSION, KIND, ObjectMeta.of(")
                    .append(namespaced ? "namespace" : "null")
                    .append(", name)");
            for (int i = 3; i < names.size(); i++) {
                out.append(", null");
            }
            out.append(");\n").append(inner).append("}\n");
        } else {
            String factory = names.contains("empty") ? "create" : "empty";
            out.append('\n')
                    .append(inner)
                    .append("/** A ")
                    .append(record.name)
                    .append(" with no field set. */\n")
                    .append(inner)
                    .append("public static ")
                    .append(record.name)
                    .append(' ')
                    .append(factory)
                    .append("() {\n")
                    .append(inner)
                    .append("    return new ")
                    .append(record.name)
                    .append('(')
                    .append(String.join(", ", Collections.nCopies(names.size(), "null")))
                    .append(");\n")
                    .append(inner)
                    .append("}\n");
        }
        for (Component c : record.components) {
            String method = "with" + JavaNames.capitalize(c.javaName());
            out.append('\n')
                    .append(inner)
                    .append("/** This ")
                    .append(record.name)
                    .append(" with {@code ")
                    .append(c.javaName())
                    .append("} replaced. */\n")
                    .append(inner)
                    .append("public ")
                    .append(record.name)
                    .append(' ')
                    .append(method)
                    .append('(')
                    .append(erase(c.type()))
                    .append(' ')
                    .append(c.javaName())
                    .append(") {\n")
                    .append(inner)
                    .append("    return new ")
                    .append(record.name)
                    .append('(')
                    .append(String.join(", ", names))
                    .append(");\n")
                    .append(inner)
                    .append("}\n");
        }
        readers.writeReader(out, record, inner);
        if (root) {
            readers.writeJacksonReader(out, record, inner);
        }
        for (TypeDecl nested : record.nested) {
            out.append('\n');
            switch (nested) {
                case RecordDecl r -> writeRecord(out, r, depth + 1, apiVersion, namespaced);
                case EnumDecl e -> writeEnum(out, e, depth + 1);
            }
        }
        out.append(indent).append("}\n");
    }

    /** Writes {@code e} at {@code depth}, with its {@code readJson}. */
    private void writeEnum(StringBuilder out, EnumDecl e, int depth) {
        imports.add("com.fasterxml.jackson.annotation.JsonProperty");
        String indent = "    ".repeat(depth);
        out.append(indent).append("/**\n");
        for (String line : e.javadoc().split("\n", -1)) {
            out.append(indent).append(line.isEmpty() ? " *" : " * " + line).append('\n');
        }
        out.append(indent).append(" */\n");
        out.append(indent).append("public enum ").append(e.name()).append(" {\n");
        int i = 0;
        for (Map.Entry<String, String> c : e.constants().entrySet()) {
            out.append(indent)
                    .append("    @JsonProperty(")
                    .append(literal(c.getValue()))
                    .append(")\n")
                    .append(indent)
                    .append("    ")
                    .append(c.getKey())
                    .append(++i == e.constants().size() ? ";\n" : ",\n");
        }
        imports.add("io.kubeloop.api.json.JsonInput");
        String inner = indent + "    ";
        out.append('\n')
                .append(inner)
                .append("private static ")
                .append(e.name())
                .append(" readJson(JsonInput in) {\n")
                .append(inner)
                .append("    String text = in.text();\n")
                .append(inner)
                .append("    if (text != null) {\n")
                .append(inner)
                .append("        switch (text) {\n");
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, String> c : e.constants().entrySet()) {
            if (seen.add(c.getValue())) {
                out.append(inner)
                        .append("            case ")
                        .append(literal(c.getValue()))
                        .append(" -> {\n")
                        .append(inner)
                        .append("                return ")
                        .append(c.getKey())
                        .append(";\n")
                        .append(inner)
                        .append("            }\n");
            }
        }
        out.append(inner)
                .append("            default -> {}\n")
                .append(inner)
                .append("        }\n")
                .append(inner)
                .append("    }\n")
                .append(inner)
                .append("    return in.value(")
                .append(e.name())
                .append(".class);\n")
                .append(inner)
                .append("}\n");
        out.append(indent).append("}\n");
    }
}
