package io.kubeloop.codegen.internal;

import java.util.Locale;
import java.util.Set;

/** Java identifiers for JSON names: properties, nested types, enum constants. Stateless. */
final class JavaNames {

    /** Keywords, literals and restricted identifiers that cannot name a variable or a record component. */
    private static final Set<String> RESERVED = Set.of(
            "abstract",
            "assert",
            "boolean",
            "break",
            "byte",
            "case",
            "catch",
            "char",
            "class",
            "const",
            "continue",
            "default",
            "do",
            "double",
            "else",
            "enum",
            "extends",
            "final",
            "finally",
            "float",
            "for",
            "goto",
            "if",
            "implements",
            "import",
            "instanceof",
            "int",
            "interface",
            "long",
            "native",
            "new",
            "package",
            "private",
            "protected",
            "public",
            "return",
            "short",
            "static",
            "strictfp",
            "super",
            "switch",
            "synchronized",
            "this",
            "throw",
            "throws",
            "transient",
            "try",
            "void",
            "volatile",
            "while",
            "true",
            "false",
            "null",
            "_",
            "var",
            "yield",
            "record",
            "sealed",
            "permits",
            "non-sealed",
            "when",
            // a record component may not be named after a method of Object
            "clone",
            "finalize",
            "getClass",
            "hashCode",
            "notify",
            "notifyAll",
            "toString",
            "wait");

    /**
     * Type names a nested type may not take because the generated code refers to the type of that
     * name (java.lang, the imports, kubeloop's annotations).
     */
    static final Set<String> RESERVED_TYPES = Set.of(
            "String",
            "Integer",
            "Long",
            "Double",
            "Boolean",
            "Object",
            "Override",
            "Deprecated",
            "Record",
            "Enum",
            "Class",
            "System",
            "Number",
            "Math",
            "Character",
            "Byte",
            "Short",
            "Float",
            "Void",
            "Iterable",
            "SuppressWarnings",
            "List",
            "Map",
            "Instant",
            "JsonNode",
            "ObjectNode",
            "IntOrString",
            "ObjectMeta",
            "Kind",
            "JsonInput",
            "JsonReader",
            "JsonDeserialize",
            "JsonParser",
            "DeserializationContext",
            "ValueDeserializer",
            "ModelDeserializer",
            "KubernetesObject",
            "JsonProperty",
            "JsonAnySetter",
            "JsonAnyGetter",
            "JsonCreator",
            "Required",
            "NullAllowed",
            "Minimum",
            "Maximum",
            "MultipleOf",
            "Pattern",
            "MinLength",
            "MaxLength",
            "MinItems",
            "MaxItems",
            "MinProperties",
            "MaxProperties",
            "Format",
            "Default",
            "ListType",
            "ListMapKeys",
            "MapType",
            "PreserveUnknownFields",
            "EmbeddedResource",
            "Validation",
            "Validations",
            "SchemaExtra",
            "CustomResource",
            "PrinterColumn",
            "Scale",
            "Description");

    private JavaNames() {}

    /**
     * A lower-camel identifier for a JSON property: characters Java does not allow split words
     * ({@code x-kubernetes-foo} → {@code xKubernetesFoo}, {@code $ref} → {@code ref}), a leading
     * digit gets a {@code _}, reserved words a trailing {@code _} ({@code class} → {@code class_}).
     */
    static String property(String json) {
        String camel = camel(json, false);
        if (camel.isEmpty()) {
            camel = "value";
        }
        if (!Character.isJavaIdentifierStart(camel.charAt(0))) {
            camel = "_" + camel;
        }
        return RESERVED.contains(camel) ? camel + "_" : camel;
    }

    /** An upper-camel type name for a JSON property ({@code issuerRef} → {@code IssuerRef}). */
    static String type(String json) {
        String camel = camel(json, true);
        if (camel.isEmpty()) {
            camel = "Value";
        }
        if (!Character.isJavaIdentifierStart(camel.charAt(0))) {
            camel = "T" + camel;
        }
        return camel;
    }

    /** The singular of an English plural, for list item types ({@code ports} → {@code port}). */
    static String singular(String name) {
        if (name.endsWith("ies") && name.length() > 3) {
            return name.substring(0, name.length() - 3) + "y";
        }
        if (name.endsWith("sses") || name.endsWith("shes") || name.endsWith("ches") || name.endsWith("xes")) {
            return name.substring(0, name.length() - 2);
        }
        if (name.endsWith("s")
                && !name.endsWith("ss")
                && !name.endsWith("us")
                && !name.endsWith("is")
                && name.length() > 1) {
            return name.substring(0, name.length() - 1);
        }
        return name;
    }

    /** An enum constant for a string value ({@code ClusterIssuer} → {@code CLUSTER_ISSUER}, {@code ""} → {@code EMPTY}). */
    static String constant(String value) {
        StringBuilder out = new StringBuilder();
        char previous = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isLetterOrDigit(c) && c < 128) {
                if (Character.isUpperCase(c) && (Character.isLowerCase(previous) || Character.isDigit(previous))) {
                    out.append('_');
                }
                out.append(Character.toUpperCase(c));
            } else if (!out.isEmpty() && out.charAt(out.length() - 1) != '_') {
                out.append('_');
            }
            previous = c;
        }
        while (!out.isEmpty() && out.charAt(out.length() - 1) == '_') {
            out.setLength(out.length() - 1);
        }
        if (out.isEmpty()) {
            return value.isEmpty() ? "EMPTY" : "VALUE";
        }
        if (Character.isDigit(out.charAt(0))) {
            out.insert(0, '_');
        }
        return out.toString();
    }

    private static String camel(String json, boolean upperFirst) {
        StringBuilder out = new StringBuilder();
        boolean upperNext = upperFirst;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (!Character.isJavaIdentifierPart(c) || c == '$') {
                upperNext = !out.isEmpty() || upperFirst;
                continue;
            }
            if (upperNext) {
                out.append(Character.toUpperCase(c));
                upperNext = false;
            } else if (out.isEmpty() && !upperFirst) {
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code name} with its first letter in upper case ({@code replicas} → {@code Replicas}). */
    static String capitalize(String name) {
        return name.isEmpty() ? name : name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }
}
