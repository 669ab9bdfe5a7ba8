package io.kubeloop.codegen.internal;

import static io.kubeloop.codegen.internal.JavaText.literal;

import io.kubeloop.codegen.CodegenException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Renders what one package of the built-in models has besides its records: its {@code package-info.java}
 * and its {@code JsonReaders}, the readers of its records for the generated code of every package (each
 * reader an instance, keyed by its index in one table, so that equal small records read from one stream are
 * shared — {@code JsonInput.sharedRecord}) and Jackson's deserializer that each record names in {@code
 * @JsonDeserialize}.
 *
 * <p>Stateless; safe to share.
 */
final class PackageRenderer {

    private PackageRenderer() {}

    /** The package's Javadoc. */
    static String packageInfo(String packageName, String groupVersion, String release) {
        return "/**\n * The models of Kubernetes' {@code " + groupVersion
                + "} API, generated from the OpenAPI documents of"
                + " Kubernetes " + release + ".\n *\n"
                + " * <p>Every record is deeply immutable (its lists and maps cannot be changed), keeps the fields it"
                + " does not\n * name and writes them back, and is built with {@code builder()} or changed with"
                + " {@code toBuilder()}\n * and the {@code with…} methods. {@code JsonReaders} is for the generated"
                + " code.\n */\npackage " + packageName + ";\n";
    }

    /** The source of the package's {@code JsonReaders}, for the records named {@code classes} (sorted). */
    static String jsonReaders(String packageName, List<String> classes) {
        Set<String> constants = new HashSet<>();
        StringBuilder out = new StringBuilder("package ").append(packageName).append(";\n\n");
        out.append("import io.kubeloop.api.json.JsonInput;\n")
                .append("import io.kubeloop.api.json.ModelDeserializer;\n")
                .append("import java.util.function.Function;\n")
                .append("import tools.jackson.databind.BeanProperty;\n")
                .append("import tools.jackson.databind.DeserializationContext;\n")
                .append("import tools.jackson.databind.ValueDeserializer;\n\n");
        out.append("/**\n * The readers of this package's records, for the readers generated with the models: one"
                        + " instance per record,\n * each reading it straight from a {@code JsonInput}, and Jackson's"
                        + " deserializer of the records.\n *\n"
                        + " * <p>Immutable and thread-safe.\n *\n * @param <T> the record a reader reads\n */\n")
                .append("public final class JsonReaders<T> implements Function<JsonInput, T> {\n");
        for (int i = 0; i < classes.size(); i++) {
            String c = classes.get(i);
            String constant = ModelTypes.readerConstant(c);
            if (!constants.add(constant)) {
                throw new CodegenException("two records of " + packageName + " have the reader name " + constant);
            }
            out.append("\n    /** Reads a {@link ")
                    .append(c)
                    .append("}. */\n    public static final JsonReaders<")
                    .append(c)
                    .append("> ")
                    .append(constant)
                    .append(" = new JsonReaders<>(")
                    .append(i)
                    .append(");\n");
        }
        out.append("\n    /** The readers by index: the key under which a stream shares the records they read. */\n")
                .append("    private static final Function<?, ?>[] TABLE = {");
        for (int i = 0; i < classes.size(); i++) {
            out.append(i == 0 ? "\n        " : ",\n        ").append(ModelTypes.readerConstant(classes.get(i)));
        }
        out.append("\n    };\n\n    private final int index;\n\n    private JsonReaders(int index) {\n")
                .append("        this.index = index;\n    }\n\n")
                .append(
                        "    /**\n     * Reads the record at the input's current value; from bytes, a small record equal to"
                                + " one the stream read\n     * before is that record again ({@code JsonInput.sharedRecord}).\n"
                                + "     *\n     * @param in the read's input\n     * @return the record, or null for JSON"
                                + " {@code null}\n     */\n")
                .append(
                        "    public T readShared(JsonInput in) {\n        return in.sharedRecord(TABLE, index);\n    }\n\n")
                .append("    /** Reads the record at the input's current value. */\n    @Override\n")
                .append(
                        "    @SuppressWarnings(\"unchecked\") // the reader of index i reads the record of constant i\n")
                .append("    public T apply(JsonInput in) {\n        return (T) switch (index) {\n");
        for (int i = 0; i < classes.size(); i++) {
            out.append("            case ")
                    .append(i)
                    .append(" -> ")
                    .append(classes.get(i))
                    .append(".readJson(in);\n");
        }
        out.append(
                        "            default -> throw new IllegalStateException(\"no record \" + index);\n        };\n    }\n\n")
                .append("    /** The reader of {@code type}, a record of this package, or null. */\n")
                .append("    static JsonReaders<?> of(Class<?> type) {\n        return switch (type.getName()) {\n");
        for (String c : classes) {
            out.append("            case ")
                    .append(literal(packageName + "." + c))
                    .append(" -> ")
                    .append(ModelTypes.readerConstant(c))
                    .append(";\n");
        }
        out.append("            default -> null;\n        };\n    }\n\n");
        out.append("    /**\n     * Jackson's deserializer of this package's records, which each names in {@code"
                        + " @JsonDeserialize}: Jackson\n     * creates one per record type, which reads with the"
                        + " record's generated reader.\n     */\n")
                .append("    public static final class Deserializer extends ModelDeserializer<Object> {\n\n")
                .append("        private final JsonReaders<?> reader;\n\n")
                .append("        /** The deserializer before Jackson contextualizes it for a record type. */\n")
                .append("        public Deserializer() {\n            this(Object.class, null);\n        }\n\n")
                .append("        @SuppressWarnings(\"unchecked\") // a deserializer of Objects that reads one type\n")
                .append("        private Deserializer(Class<?> type, JsonReaders<?> reader) {\n")
                .append("            super((Class<Object>) type);\n            this.reader = reader;\n        }\n\n")
                .append("        @Override\n")
                .append("        public ValueDeserializer<?> createContextual(DeserializationContext context,"
                        + " BeanProperty property) {\n")
                .append("            if (reader != null || context.getContextualType() == null) {\n")
                .append("                return this;\n            }\n")
                .append("            Class<?> type = context.getContextualType().getRawClass();\n")
                .append("            ModelDeserializer<?> found = forType(type);\n")
                .append("            if (found == null) {\n")
                .append("                throw new IllegalArgumentException(type + \" is not a record of \" +"
                        + " JsonReaders.class.getPackageName());\n            }\n")
                .append("            return found;\n        }\n\n")
                .append("        @Override\n")
                .append("        protected ModelDeserializer<?> forType(Class<?> type) {\n")
                .append("            JsonReaders<?> found = of(type);\n")
                .append("            return found == null ? null : new Deserializer(type, found);\n        }\n\n")
                .append("        @Override\n        protected Object read(JsonInput in) {\n")
                .append("            if (reader == null) {\n")
                .append("                throw new IllegalStateException(\"not contextualized for a record type\");\n")
                .append("            }\n            return reader.apply(in);\n        }\n    }\n}\n");
        return out.toString();
    }
}
