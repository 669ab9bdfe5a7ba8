package io.kubeloop.api.yaml;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.snakeyaml.engine.v2.api.DumpSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Kubernetes YAML, as {@code kubectl apply -f} reads it and {@code kubectl get -o yaml} writes it.
 *
 * <p>Reading: a stream holds any number of documents separated by {@code ---}; empty documents
 * (nothing, or only comments) are skipped; a document whose kind is {@code List} (or ends in
 * {@code List}) and that has {@code items} stands for its items, as kubectl expands it. Every other
 * document must be a mapping. Typed reads bind each document's tree with {@link KubeJson#mapper()},
 * so a type reads from YAML exactly as from JSON. Scalars follow YAML 1.2's core schema: {@code yes}
 * and {@code on} are strings, not booleans as in the YAML 1.1 that Go's {@code sigs.k8s.io/yaml}
 * speaks — quote such values in manifests meant for both.
 *
 * <p>Writing: objects are turned into their JSON trees with {@link KubeJson#mapper()} (null fields
 * left out) and written in block style with two-space indentation, sequences not indented under their
 * key, strings quoted only when YAML would otherwise read them as something else, as kubectl prints
 * them: numbers, booleans, null, timestamps, or text that YAML would misparse — by the rules of YAML 1.1
 * as well as 1.2, so that {@code yes}, {@code 0755}, {@code 1:20} or {@code 1970-01-01T00:00:00Z} come out
 * quoted and YAML 1.1 readers (Go's {@code sigs.k8s.io/yaml}, PyYAML, Ansible) read the same strings as
 * YAML 1.2 readers. Several objects are written as documents separated by {@code ---}.
 *
 * {@snippet :
 * List<DynamicObject> objects = KubeYaml.readAll(Path.of("manifests.yaml"));
 * Deployment d = KubeYaml.read(Files.readString(Path.of("deployment.yaml")), Deployment.class);
 * String yaml = KubeYaml.writeAll(objects);
 * }
 *
 * <p>Stateless and thread-safe.
 */
public final class KubeYaml {

    private static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
                    .stringQuotingChecker(PortableQuoting.INSTANCE)
                    .build())
            .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS) // the next document follows
            .build();

    /**
     * The writer of a document holding NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR (line breaks to a YAML 1.1
     * reader, ordinary characters to YAML 1.2): it escapes every character outside ASCII in double-quoted
     * scalars, so that every reader reads the same strings.
     */
    private static final YAMLMapper ESCAPING = YAMLMapper.builder(YAMLFactory.builder()
                    .stringQuotingChecker(PortableQuoting.INSTANCE)
                    .dumperOptions(DumpSettings.builder()
                            .setExplicitStart(false)
                            .setSplitLines(false)
                            .setUseUnicodeEncoding(false)
                            .build())
                    .build())
            .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    private KubeYaml() {}

    /**
     * Every object in a YAML stream, in order.
     *
     * @param yaml the stream's text
     * @return the objects (lists expanded, empty documents skipped)
     * @throws YamlException if the stream is not valid YAML or a document is not a mapping
     */
    public static List<DynamicObject> readAll(String yaml) {
        List<DynamicObject> out = new ArrayList<>();
        for (ObjectNode node : trees(Objects.requireNonNull(yaml, "yaml"))) {
            out.add(DynamicObject.wrap(node));
        }
        return out;
    }

    /**
     * Every object in a YAML file, in order.
     *
     * @throws YamlException if the file is not valid YAML or a document is not a mapping
     * @throws UncheckedIOException if the file cannot be read
     */
    public static List<DynamicObject> readAll(Path file) {
        return readAll(readFile(file));
    }

    /**
     * Every object in a YAML stream, in order, as {@code type}.
     *
     * @throws YamlException if the stream is not valid YAML or a document does not bind to the type
     */
    public static <T> List<T> readAll(String yaml, Class<T> type) {
        Objects.requireNonNull(type, "type");
        List<ObjectNode> trees = trees(Objects.requireNonNull(yaml, "yaml"));
        List<T> out = new ArrayList<>(trees.size());
        for (int i = 0; i < trees.size(); i++) {
            out.add(bind(trees.get(i), type, i + 1));
        }
        return out;
    }

    /**
     * Every object in a YAML stream read from {@code reader} (which is not closed).
     *
     * @throws YamlException if the stream is not valid YAML or a document is not a mapping
     * @throws UncheckedIOException if reading fails
     */
    public static List<DynamicObject> readAll(Reader reader) {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        try {
            for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                text.append(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return readAll(text.toString());
    }

    /**
     * The one object in a YAML stream, as {@code type}.
     *
     * @throws YamlException if the stream does not hold exactly one object, or it does not bind
     */
    public static <T> T read(String yaml, Class<T> type) {
        List<T> all = readAll(yaml, type);
        if (all.size() != 1) {
            throw new YamlException(
                    "expected exactly one object, found " + all.size(), Math.max(1, all.size()), 0, 0, null);
        }
        return all.getFirst();
    }

    /** One object as a YAML document (no {@code ---} marker). */
    public static String write(Object object) {
        JsonNode tree = tree(object);
        return (hasYaml11LineBreak(tree) ? ESCAPING : YAML).writeValueAsString(tree);
    }

    /** Whether a name or string in {@code node} holds a character that only YAML 1.1 reads as a line break. */
    private static boolean hasYaml11LineBreak(JsonNode node) {
        if (node.isString()) {
            return PortableQuoting.breaksLinesInYaml11(node.asString());
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (PortableQuoting.breaksLinesInYaml11(e.getKey()) || hasYaml11LineBreak(e.getValue())) {
                return true;
            }
        }
        for (JsonNode item : node.isArray() ? node : List.<JsonNode>of()) {
            if (hasYaml11LineBreak(item)) {
                return true;
            }
        }
        return false;
    }

    /** Objects as a stream of YAML documents separated by {@code ---}; empty text for none. */
    public static String writeAll(List<?> objects) {
        StringBuilder out = new StringBuilder();
        for (Object o : objects) {
            if (!out.isEmpty()) {
                out.append("---\n");
            }
            out.append(write(o));
        }
        return out.toString();
    }

    private static JsonNode tree(Object object) {
        Objects.requireNonNull(object, "object");
        return object instanceof DynamicObject d ? d.node() : KubeJson.mapper().valueToTree(object);
    }

    private static String readFile(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static <T> T bind(ObjectNode tree, Class<T> type, int document) {
        if (type == DynamicObject.class) {
            return type.cast(DynamicObject.wrap(tree));
        }
        try {
            return KubeJson.mapper().treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new YamlException(
                    "cannot read as " + type.getSimpleName() + ": " + e.getOriginalMessage(), document, 0, 0, e);
        }
    }

    /** The stream's objects as JSON trees, lists expanded, empty documents skipped. */
    private static List<ObjectNode> trees(String yaml) {
        List<ObjectNode> out = new ArrayList<>();
        int document = 1; // the document being read, counted from 1
        try (JsonParser p = YAML.createParser(yaml)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken(), document++) {
                TokenStreamLocation at = p.currentTokenLocation();
                JsonNode node = YAML.readTree(p);
                if (node == null || node.isNull() || node.isMissingNode()) {
                    continue; // an empty document
                }
                if (!(node instanceof ObjectNode object)) {
                    throw new YamlException(
                            "a Kubernetes object must be a mapping, found " + describe(t),
                            document,
                            line(at),
                            column(at),
                            null);
                }
                expand(object, document, out);
            }
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            throw new YamlException(e.getOriginalMessage(), document, line(at), column(at), e);
        }
        return out;
    }

    private static void expand(ObjectNode object, int document, List<ObjectNode> out) {
        String kind = object.path("kind").asString("");
        JsonNode items = object.get("items");
        if (kind.endsWith("List") && items != null && items.isArray()) {
            for (JsonNode item : items) {
                if (!(item instanceof ObjectNode o)) {
                    throw new YamlException("an item of a " + kind + " must be a mapping", document, 0, 0, null);
                }
                out.add(o);
            }
            return;
        }
        out.add(object);
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_ARRAY -> "a sequence";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            default -> "a scalar";
        };
    }

    private static int line(TokenStreamLocation at) {
        return at == null || at.getLineNr() < 1 ? 0 : at.getLineNr();
    }

    private static int column(TokenStreamLocation at) {
        return at == null || at.getColumnNr() < 1 ? 0 : at.getColumnNr();
    }
}
