package io.kubeloop.codegen.internal;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Java source text for generated code: string literals, number literals, Javadoc text from schema
 * descriptions, and the spelling of types with type-use annotations (adding, erasing, raw types).
 *
 * <p>Pure functions of their arguments; no state, so thread-safe.
 */
final class JavaText {

    private JavaText() {}

    /** The type without its type-use annotations (a parameter's type; annotations stay on the component). */
    static String erase(String type) {
        return type.replaceAll("@\\w+(\\((?:[^()\"]|\"(?:[^\"\\\\]|\\\\.)*\")*\\))? ", "");
    }

    /** The class literal's name for a type: no type-use annotations, no type arguments. */
    static String rawType(String type) {
        String erased = erase(type);
        int generic = erased.indexOf('<');
        return generic < 0 ? erased : erased.substring(0, generic);
    }

    /**
     * {@code type} with the type annotations {@code annotations}: in front of it, or, for a nested type
     * named through the types that enclose it ({@code Application.Spec.Source}), in front of its last
     * part, where Java takes a type annotation of such a name ({@code Application.Spec.@Required Source}).
     */
    static String annotate(List<String> annotations, String type) {
        if (annotations.isEmpty()) {
            return type;
        }
        int generic = type.indexOf('<');
        int dot = type.lastIndexOf('.', generic < 0 ? type.length() : generic);
        String joined = String.join(" ", annotations);
        return dot < 0 ? joined + " " + type : type.substring(0, dot + 1) + joined + " " + type.substring(dot + 1);
    }

    /** A number as a Java literal: an int or long literal when whole, else a double. */
    static String number(JsonNode n) {
        double value = n.asDouble();
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            long whole = (long) value;
            return whole == (int) whole ? Long.toString(whole) : whole + "L";
        }
        return Double.toString(value);
    }

    /** Javadoc text for a schema: its description, escaped, or {@code fallback} (or a note) without one. */
    static String javadoc(JsonNode schema, String fallback) {
        String description = schema.path("description").asString("").strip();
        if (description.isEmpty()) {
            return fallback == null ? "(No description in the schema.)" : fallback;
        }
        return escapeJavadoc(description);
    }

    /** The first sentence ({@code "Requested 'duration' (i.e. lifetime) of the Certificate."}), abbreviations kept. */
    static String firstSentence(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        BreakIterator sentences = BreakIterator.getSentenceInstance(Locale.ROOT);
        sentences.setText(flat);
        int end = sentences.next();
        while (end != BreakIterator.DONE && end < flat.length() && !startsSentence(flat, end)) {
            end = sentences.next();
        }
        return end == BreakIterator.DONE ? flat : flat.substring(0, end).strip();
    }

    /** A sentence starts with a capital letter or a digit, so "i.e. lifetime" goes on. */
    private static boolean startsSentence(String text, int at) {
        char c = text.charAt(at);
        return Character.isUpperCase(c) || Character.isDigit(c);
    }

    /** Text safe inside a Javadoc comment: no comment end, no tags, no HTML, no unicode escapes. */
    static String escapeJavadoc(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("*/", "*&#47;")
                .replace("@", "&#64;")
                .replace("\\", "&#92;")
                .replace("{", "&#123;")
                .replace("}", "&#125;");
    }

    /** A Java string literal. */
    static String literal(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** An annotation value for strings: one literal, or an array initializer of literals. */
    static String stringArray(JsonNode values) {
        List<String> items = new ArrayList<>();
        for (JsonNode v : values) {
            items.add(literal(v.asString()));
        }
        return items.size() == 1 ? items.getFirst() : "{" + String.join(", ", items) + "}";
    }
}
