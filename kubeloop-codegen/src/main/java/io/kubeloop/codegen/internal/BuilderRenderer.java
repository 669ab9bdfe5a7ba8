package io.kubeloop.codegen.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Renders the nested {@code Builder} of a record of the built-in models: a setter per component named like
 * it; for a component that is itself a record with a builder, a setter taking a {@code Consumer} of that
 * builder (which edits the value already set, or a new one); for lists an {@code add…} method per item (and
 * one taking a {@code Consumer} of the item's builder), for maps a {@code put…} method per entry, named
 * after the singular of the component ({@code containers} → {@code addContainer}, {@code labels} →
 * {@code putLabel}). A kind's builder starts with its API version and kind set.
 *
 * <p>Invariant: method names are unique by name and parameter types; an adder whose singular name another
 * method has is named {@code addTo…}/{@code putIn…} the component instead. Not thread-safe: one instance per
 * compilation unit.
 */
final class BuilderRenderer {

    private final ImportSet imports;

    BuilderRenderer(ImportSet imports) {
        this.imports = imports;
    }

    /**
     * Writes the builder of {@code record}, whose components have {@code types}.
     *
     * @param kind whether the builder starts with {@code API_VERSION} and {@code KIND} set
     */
    void write(StringBuilder out, RecordDecl record, List<ModelType> types, boolean kind) {
        String name = record.name;
        out.append("\n    /**\n     * Builds a {@code ")
                .append(name)
                .append("}: set the fields, then {@link #build()}. Each {@code build()} makes an independent record.\n")
                .append("     * Not thread-safe.\n     */\n")
                .append("    public static final class Builder {\n");
        for (int i = 0; i < record.components.size(); i++) {
            Component c = record.components.get(i);
            out.append("        private ").append(c.type()).append(' ').append(c.javaName());
            if (kind && (c.javaName().equals("apiVersion") || c.javaName().equals("kind"))) {
                out.append(" = ").append(c.javaName().equals("kind") ? "KIND" : "API_VERSION");
            }
            out.append(";\n");
        }
        out.append("\n        private Builder() {}\n\n        private Builder(")
                .append(name)
                .append(" from) {\n");
        for (Component c : record.components) {
            out.append("            this.")
                    .append(c.javaName())
                    .append(" = from.")
                    .append(c.javaName())
                    .append(";\n");
        }
        out.append("        }\n");
        Set<String> methods = new HashSet<>();
        for (Component c : record.components) {
            methods.add(c.javaName());
        }
        for (int i = 0; i < record.components.size(); i++) {
            Component c = record.components.get(i);
            ModelType type = types.get(i);
            writeSetter(out, c);
            if (type.builder() != null) {
                writeEdit(out, c, type);
            }
            if (type.shape() == ModelType.Shape.LIST) {
                String adder = claim(methods, "add", c.javaName(), "addTo");
                writeAdder(out, c, type.element(), adder);
            } else if (type.shape() == ModelType.Shape.MAP) {
                String putter = claim(methods, "put", c.javaName(), "putIn");
                writePutter(out, c, type.element(), putter);
            }
        }
        out.append("\n        /** The record of the fields set. */\n        public ")
                .append(name)
                .append(" build() {\n            return new ")
                .append(name)
                .append('(')
                .append(String.join(
                        ", ",
                        record.components.stream().map(Component::javaName).toList()))
                .append(");\n        }\n    }\n");
    }

    private static String claim(Set<String> methods, String prefix, String component, String fallback) {
        String wanted = prefix + JavaNames.capitalize(JavaNames.singular(component));
        String name = methods.add(wanted) ? wanted : fallback + JavaNames.capitalize(component);
        methods.add(name);
        return name;
    }

    private static void writeSetter(StringBuilder out, Component c) {
        out.append("\n        /** Sets {@code ")
                .append(c.javaName())
                .append("}. */\n        public Builder ")
                .append(c.javaName())
                .append('(')
                .append(c.type())
                .append(' ')
                .append(c.javaName())
                .append(") {\n            this.")
                .append(c.javaName())
                .append(" = ")
                .append(c.javaName())
                .append(";\n            return this;\n        }\n");
    }

    private void writeEdit(StringBuilder out, Component c, ModelType type) {
        imports.add("java.util.function.Consumer");
        String builder = type.builder() + ".Builder";
        String n = c.javaName();
        out.append("\n        /** Edits {@code ")
                .append(n)
                .append("} (a new one when unset) with {@code edit}. */\n        public Builder ")
                .append(n)
                .append("(Consumer<")
                .append(builder)
                .append("> edit) {\n            ")
                .append(builder)
                .append(" b = this.")
                .append(n)
                .append(" == null ? ")
                .append(type.builder())
                .append(".builder() : this.")
                .append(n)
                .append(".toBuilder();\n            edit.accept(b);\n            this.")
                .append(n)
                .append(" = b.build();\n            return this;\n        }\n");
    }

    private void writeAdder(StringBuilder out, Component c, ModelType item, String adder) {
        imports.add("java.util.ArrayList");
        String n = c.javaName();
        out.append("\n        /** Adds {@code element} at the end of {@code ")
                .append(n)
                .append("}. */\n        public Builder ")
                .append(adder)
                .append('(')
                .append(item.text())
                .append(" element) {\n            List<")
                .append(item.text())
                .append("> items = this.")
                .append(n)
                .append(" == null ? new ArrayList<>() : new ArrayList<>(this.")
                .append(n)
                .append(");\n            items.add(element);\n            this.")
                .append(n)
                .append(" = items;\n            return this;\n        }\n");
        if (item.builder() != null) {
            imports.add("java.util.function.Consumer");
            String builder = item.builder() + ".Builder";
            out.append("\n        /** Adds the item {@code edit} builds at the end of {@code ")
                    .append(n)
                    .append("}. */\n        public Builder ")
                    .append(adder)
                    .append("(Consumer<")
                    .append(builder)
                    .append("> edit) {\n            ")
                    .append(builder)
                    .append(" b = ")
                    .append(item.builder())
                    .append(".builder();\n            edit.accept(b);\n            return ")
                    .append(adder)
                    .append("(b.build());\n        }\n");
        }
    }

    private void writePutter(StringBuilder out, Component c, ModelType value, String putter) {
        imports.add("java.util.LinkedHashMap");
        String n = c.javaName();
        out.append("\n        /** Puts {@code key} with {@code value} into {@code ")
                .append(n)
                .append("}. */\n        public Builder ")
                .append(putter)
                .append("(String key, ")
                .append(value.text())
                .append(" value) {\n            Map<String, ")
                .append(value.text())
                .append("> entries = this.")
                .append(n)
                .append(" == null ? new LinkedHashMap<>() : new LinkedHashMap<>(this.")
                .append(n)
                .append(");\n            entries.put(key, value);\n            this.")
                .append(n)
                .append(" = entries;\n            return this;\n        }\n");
    }
}
