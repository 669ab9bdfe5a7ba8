package io.kubeloop.codegen.internal;

import static io.kubeloop.codegen.internal.JavaText.erase;
import static io.kubeloop.codegen.internal.JavaText.literal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Renders the generated reader of a kind's records: each record's {@code readJson} straight from a
 * {@code JsonInput}, the kind's {@code READERS} table of nested readers with the class of its entries, and
 * the kind's Jackson deserializer.
 *
 * <p>Invariant: entry {@code i} of the table reads the record at index {@code i} of the readers list, the
 * index {@link SchemaMapper} wrote into the readers that use it. Not thread-safe: one instance per source
 * file.
 */
final class ReaderRenderer {

    private final ImportSet imports;

    /** The nested records, in the order of the kind's {@code READERS} table of their readers. */
    private final List<RecordDecl> readers;

    /** A renderer whose imports go to {@code imports}, for a kind whose nested records are {@code readers}. */
    ReaderRenderer(ImportSet imports, List<RecordDecl> readers) {
        this.imports = imports;
        this.readers = readers;
    }

    /**
     * The record's {@code readJson}: its properties straight from a {@code JsonInput} into its canonical
     * constructor, one {@code case} per property, by its number in the record's {@code JsonFields}.
     */
    void writeReader(StringBuilder out, RecordDecl record, String indent) {
        writeReader(out, record, indent, "private static ");
    }

    /** {@link #writeReader(StringBuilder, RecordDecl, String)} with the method's modifiers ({@code "static "}). */
    void writeReader(StringBuilder out, RecordDecl record, String indent, String modifiers) {
        imports.add("io.kubeloop.api.json.JsonInput");
        imports.add("io.kubeloop.api.json.JsonFields");
        Set<String> taken = new HashSet<>();
        for (Component c : record.components) {
            taken.add(c.javaName());
        }
        String in = freshName("in", taken);
        String field = freshName("field", taken);
        String fields = freshName("JSON_FIELDS", taken);
        String body = indent + "    ";
        List<Component> named =
                record.components.stream().filter(c -> c.jsonName() != null).toList();
        out.append('\n')
                .append(indent)
                .append("private static final JsonFields ")
                .append(fields)
                .append(" = JsonFields.of(")
                .append(record.name)
                .append(".class");
        for (Component c : named) {
            out.append(",\n").append(body).append("        ").append(literal(c.jsonName()));
        }
        out.append(");\n");
        out.append('\n')
                .append(indent)
                .append(modifiers)
                .append(record.name)
                .append(" readJson(JsonInput ")
                .append(in)
                .append(") {\n")
                .append(body)
                .append("if (")
                .append(in)
                .append(".isNull()) {\n")
                .append(body)
                .append("    return null;\n")
                .append(body)
                .append("}\n");
        Component unknown = null;
        for (Component c : record.components) {
            out.append(body)
                    .append(erase(c.type()))
                    .append(' ')
                    .append(c.javaName())
                    .append(" = null;\n");
            if (c.jsonName() == null) {
                unknown = c;
            }
        }
        out.append(body)
                .append("for (int ")
                .append(field)
                .append(" = ")
                .append(in)
                .append(".firstField(")
                .append(fields)
                .append("); ")
                .append(field)
                .append(" != JsonInput.END; ")
                .append(field)
                .append(" = ")
                .append(in)
                .append(".nextField(")
                .append(fields)
                .append(")) {\n")
                .append(body)
                .append("    switch (")
                .append(field)
                .append(") {\n");
        for (int i = 0; i < named.size(); i++) {
            Component c = named.get(i);
            out.append(body)
                    .append("        case ")
                    .append(i)
                    .append(" -> ")
                    .append(c.javaName())
                    .append(" = ")
                    .append(c.read().on(in))
                    .append(';');
            if (c.jsonName().matches("[\\w.$/-]+")) { // a name that reads the same in a comment
                out.append(" // ").append(c.jsonName());
            }
            out.append('\n');
        }
        out.append(body).append("        default -> ");
        if (unknown != null) {
            out.append(unknown.javaName())
                    .append(" = ")
                    .append(in)
                    .append(".keep(")
                    .append(unknown.javaName())
                    .append(", ")
                    .append(in)
                    .append(".fieldName());\n");
        } else {
            out.append(in).append(".skipField(").append(fields).append(");\n");
        }
        out.append(body).append("    }\n").append(body).append("}\n");
        out.append(body)
                .append("return new ")
                .append(record.name)
                .append('(')
                .append(String.join(
                        ", ",
                        record.components.stream().map(Component::javaName).toList()))
                .append(");\n")
                .append(indent)
                .append("}\n");
    }

    /** The kind's Jackson deserializer: its generated reader, found through {@code @JsonDeserialize}. */
    void writeJacksonReader(StringBuilder out, RecordDecl record, String indent) {
        imports.add("io.kubeloop.api.json.ModelDeserializer");
        String body = indent + "    ";
        out.append('\n')
                .append(indent)
                .append("/**\n")
                .append(indent)
                .append(" * Jackson's deserializer of {@code ")
                .append(record.name)
                .append("}: the reader generated with this record, straight from the\n")
                .append(indent)
                .append(
                        " * parser into the records, without reflection. Jackson finds it through {@code @JsonDeserialize}.\n")
                .append(indent)
                .append(" */\n")
                .append(indent)
                .append("public static final class JsonReader extends ModelDeserializer<")
                .append(record.name)
                .append("> {\n\n")
                .append(body)
                .append("/** The deserializer (Jackson creates it). */\n")
                .append(body)
                .append("public JsonReader() {\n")
                .append(body)
                .append("    super(")
                .append(record.name)
                .append(".class);\n")
                .append(body)
                .append("}\n\n")
                .append(body)
                .append("@Override\n")
                .append(body)
                .append("protected ")
                .append(record.name)
                .append(" read(JsonInput in) {\n")
                .append(body)
                .append("    return readJson(in);\n")
                .append(body)
                .append("}\n");
        writeNestedReaders(out, record, body);
        out.append(indent).append("}\n");
    }

    /**
     * The root's table of the nested records' readers. A nested record is read through it ({@code
     * JsonInput.record}) rather than by a direct call so that the JIT compiles each reader once, on its own:
     * called directly, every nested reader is inlined into its parent's, and the kind's large readers then
     * take seconds to compile. The table holds instances of one class ({@link #writeNestedReaders}), not a
     * method reference per record: the JVM defines a class for each method reference when it is first
     * evaluated, which for a kind with hundreds of nested records costs a noticeable part of a second when
     * the kind is first read.
     */
    void writeReaderTable(StringBuilder out, String indent, RecordDecl root) {
        if (readers.isEmpty()) {
            return;
        }
        imports.add("java.util.function.Function");
        out.append(indent)
                .append("/** The nested records' readers, by index (see {@code JsonInput.record}). */\n")
                .append(indent)
                .append("private static final Function<?, ?>[] READERS = JsonReader.")
                .append(nestedReadersName(root))
                .append(".table(")
                .append(readers.size())
                .append(");\n\n");
    }

    /** The name of the class of the nested readers, within the kind's JsonReader (not the kind's name). */
    private static String nestedReadersName(RecordDecl root) {
        return root.name.equals("Nested") ? "NestedRecords" : "Nested";
    }

    /**
     * The class of the entries of the {@code READERS} table, nested in the kind's JsonReader: each instance
     * reads the nested record of its index. Its references to the records are qualified by the kind's name,
     * which no nested type shares.
     */
    private void writeNestedReaders(StringBuilder out, RecordDecl root, String indent) {
        if (readers.isEmpty()) {
            return;
        }
        String name = nestedReadersName(root);
        String body = indent + "    ";
        out.append('\n')
                .append(indent)
                .append("/** Reads the nested record of one index of {@code READERS}; one class for all of them. */\n")
                .append(indent)
                .append("private static final class ")
                .append(name)
                .append(" implements Function<JsonInput, Object> {\n\n")
                .append(body)
                .append("private final int index;\n\n")
                .append(body)
                .append("private ")
                .append(name)
                .append("(int index) {\n")
                .append(body)
                .append("    this.index = index;\n")
                .append(body)
                .append("}\n\n")
                .append(body)
                .append("static Function<?, ?>[] table(int size) {\n")
                .append(body)
                .append("    Function<?, ?>[] table = new Function<?, ?>[size];\n")
                .append(body)
                .append("    for (int i = 0; i < size; i++) {\n")
                .append(body)
                .append("        table[i] = new ")
                .append(name)
                .append("(i);\n")
                .append(body)
                .append("    }\n")
                .append(body)
                .append("    return table;\n")
                .append(body)
                .append("}\n\n")
                .append(body)
                .append("@Override\n")
                .append(body)
                .append("public Object apply(JsonInput in) {\n")
                .append(body)
                .append("    return switch (index) {\n");
        for (int i = 0; i < readers.size(); i++) {
            out.append(body)
                    .append("        case ")
                    .append(i)
                    .append(" -> ")
                    .append(root.name)
                    .append('.')
                    .append(readers.get(i).path())
                    .append(".readJson(in);\n");
        }
        out.append(body)
                .append("        default -> throw new IllegalStateException(\"no nested record \" + index);\n")
                .append(body)
                .append("    };\n")
                .append(body)
                .append("}\n")
                .append(indent)
                .append("}\n");
    }

    /** {@code wanted}, numbered if a component or a lambda parameter ({@code e1}…) has that name. */
    private static String freshName(String wanted, Set<String> taken) {
        String name = wanted;
        for (int i = 2; taken.contains(name) || name.matches("e\\d+"); i++) {
            name = wanted + i;
        }
        return name;
    }
}
