package io.kubeloop.client.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads one kubeconfig file into a {@link KubeConfig}: checks types, decodes base64, resolves
 * relative paths against the file's directory, rejects duplicate names. Unknown fields are ignored,
 * as clientcmd does. Semantic checks of the selected context (missing server, exec apiVersion…)
 * happen later, in {@link ClientConfigFactory}.
 *
 * <p>Stateless and thread-safe.
 */
final class KubeConfigParser {

    /** Jackson 3 mappers are immutable. */
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private static final String EXEC_EXTENSION = "client.authentication.k8s.io/exec";

    private final Path file;
    private final Path base;

    private KubeConfigParser(Path file) {
        this.file = file;
        this.base = file.toAbsolutePath().getParent();
    }

    /**
     * Parses {@code file}, or returns null when it does not exist (the loader decides whether that
     * is an error: it is for an explicit path, not for a {@code KUBECONFIG} entry).
     *
     * @throws KubeConfigException for unreadable or invalid files
     */
    static KubeConfig parseIfExists(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw KubeConfigException.in(file, "cannot read: " + e);
        }
        return new KubeConfigParser(file).parse(bytes);
    }

    private KubeConfig parse(byte[] bytes) {
        JsonNode root;
        try {
            root = bytes.length == 0 ? null : YAML.readTree(bytes);
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw KubeConfigException.in(file, "invalid YAML" + where + ": " + firstLine(e.getOriginalMessage()), e);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return new KubeConfig(List.of(file), null, Map.of(), Map.of(), Map.of(), Map.of());
        }
        if (!root.isObject()) {
            throw KubeConfigException.in(file, "expected a mapping at the top level");
        }
        String current = string(root.get("current-context"), "current-context");
        Map<String, KubeConfig.Cluster> clusters = new LinkedHashMap<>();
        for (Entry e : entries(root, "clusters", "cluster")) {
            clusters.put(e.name, cluster(e));
        }
        Map<String, KubeConfig.User> users = new LinkedHashMap<>();
        for (Entry e : entries(root, "users", "user")) {
            users.put(e.name, user(e));
        }
        Map<String, KubeConfig.Context> contexts = new LinkedHashMap<>();
        for (Entry e : entries(root, "contexts", "context")) {
            contexts.put(
                    e.name,
                    new KubeConfig.Context(
                            e.name,
                            e.origin,
                            string(e.body.get("cluster"), e.field("cluster")),
                            string(e.body.get("user"), e.field("user")),
                            string(e.body.get("namespace"), e.field("namespace"))));
        }
        Map<String, Object> preferences = new LinkedHashMap<>();
        JsonNode prefs = root.get("preferences");
        if (prefs != null && !prefs.isNull()) {
            if (!prefs.isObject()) {
                throw fieldError("preferences", "expected a mapping");
            }
            prefs.forEachEntry((key, value) -> preferences.put(key, YAML.convertValue(value, Object.class)));
        }
        return new KubeConfig(List.of(file), current, clusters, users, contexts, preferences);
    }

    /** One named list item: {@code <list>[i]} with its {@code name} and its {@code <bodyKey>} mapping. */
    private record Entry(String name, KubeConfig.Origin origin, JsonNode body) {
        String field(String name) {
            return origin.path() + "." + name;
        }
    }

    private List<Entry> entries(JsonNode root, String list, String bodyKey) {
        JsonNode items = root.get(list);
        if (items == null || items.isNull()) {
            return List.of();
        }
        if (!items.isArray()) {
            throw fieldError(list, "expected a list");
        }
        List<Entry> result = new ArrayList<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String at = list + "[" + i + "]";
            JsonNode item = items.get(i);
            if (!item.isObject()) {
                throw fieldError(at, "expected a mapping with name and " + bodyKey);
            }
            String name = string(item.get("name"), at + ".name");
            if (name == null) {
                throw fieldError(at + ".name", "missing");
            }
            Integer previous = seen.putIfAbsent(name, i);
            if (previous != null) {
                throw fieldError(at + ".name", "duplicate name \"" + name + "\" (also " + list + "[" + previous + "])");
            }
            JsonNode body = item.get(bodyKey);
            if (body == null || body.isNull()) {
                body = YAML.createObjectNode();
            } else if (!body.isObject()) {
                throw fieldError(at + "." + bodyKey, "expected a mapping");
            }
            result.add(new Entry(name, new KubeConfig.Origin(file, at + "." + bodyKey), body));
        }
        return result;
    }

    private KubeConfig.Cluster cluster(Entry e) {
        JsonNode c = e.body;
        return new KubeConfig.Cluster(
                e.name,
                e.origin,
                string(c.get("server"), e.field("server")),
                path(c.get("certificate-authority"), e.field("certificate-authority")),
                base64(c.get("certificate-authority-data"), e.field("certificate-authority-data")),
                bool(c.get("insecure-skip-tls-verify"), e.field("insecure-skip-tls-verify")),
                string(c.get("tls-server-name"), e.field("tls-server-name")),
                string(c.get("proxy-url"), e.field("proxy-url")),
                bool(c.get("disable-compression"), e.field("disable-compression")),
                execExtension(c.get("extensions"), e.field("extensions")));
    }

    private Object execExtension(JsonNode extensions, String at) {
        if (extensions == null || extensions.isNull()) {
            return null;
        }
        if (!extensions.isArray()) {
            throw fieldError(at, "expected a list");
        }
        for (JsonNode ext : extensions) {
            if (ext.isObject() && EXEC_EXTENSION.equals(ext.path("name").asString(""))) {
                JsonNode value = ext.get("extension");
                return value == null || value.isNull() ? null : YAML.convertValue(value, Object.class);
            }
        }
        return null;
    }

    private KubeConfig.User user(Entry e) {
        JsonNode u = e.body;
        JsonNode authProvider = u.get("auth-provider");
        return new KubeConfig.User(
                e.name,
                e.origin,
                string(u.get("token"), e.field("token")),
                path(u.get("tokenFile"), e.field("tokenFile")),
                path(u.get("client-certificate"), e.field("client-certificate")),
                base64(u.get("client-certificate-data"), e.field("client-certificate-data")),
                path(u.get("client-key"), e.field("client-key")),
                base64(u.get("client-key-data"), e.field("client-key-data")),
                string(u.get("username"), e.field("username")),
                string(u.get("password"), e.field("password")),
                exec(u.get("exec"), e.field("exec")),
                authProvider != null && !authProvider.isNull());
    }

    private KubeConfig.Exec exec(JsonNode exec, String at) {
        if (exec == null || exec.isNull()) {
            return null;
        }
        if (!exec.isObject()) {
            throw fieldError(at, "expected a mapping");
        }
        String command = string(exec.get("command"), at + ".command");
        if (command != null && command.indexOf('/') >= 0) {
            command = base.resolve(command).normalize().toString();
        }
        List<String> args = new ArrayList<>();
        JsonNode argNodes = exec.get("args");
        if (argNodes != null && !argNodes.isNull()) {
            if (!argNodes.isArray()) {
                throw fieldError(at + ".args", "expected a list");
            }
            for (int i = 0; i < argNodes.size(); i++) {
                String arg = string(argNodes.get(i), at + ".args[" + i + "]");
                args.add(arg == null ? "" : arg);
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode envNodes = exec.get("env");
        if (envNodes != null && !envNodes.isNull()) {
            if (!envNodes.isArray()) {
                throw fieldError(at + ".env", "expected a list");
            }
            for (int i = 0; i < envNodes.size(); i++) {
                String item = at + ".env[" + i + "]";
                JsonNode var = envNodes.get(i);
                if (!var.isObject()) {
                    throw fieldError(item, "expected a mapping with name and value");
                }
                String name = string(var.get("name"), item + ".name");
                if (name == null) {
                    throw fieldError(item + ".name", "missing");
                }
                String value = string(var.get("value"), item + ".value");
                env.put(name, value == null ? "" : value);
            }
        }
        return new KubeConfig.Exec(
                command,
                args,
                env,
                string(exec.get("apiVersion"), at + ".apiVersion"),
                string(exec.get("installHint"), at + ".installHint"),
                bool(exec.get("provideClusterInfo"), at + ".provideClusterInfo"),
                string(exec.get("interactiveMode"), at + ".interactiveMode"));
    }

    /** A scalar as a string; null when absent, null or empty. */
    private String string(JsonNode node, String at) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isContainer()) {
            throw fieldError(at, "expected a string");
        }
        String value = node.asString();
        return value.isEmpty() ? null : value;
    }

    private boolean bool(JsonNode node, String at) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        String text = node.isString() ? node.stringValue() : "";
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw fieldError(at, "expected true or false");
        };
    }

    private Path path(JsonNode node, String at) {
        String value = string(node, at);
        return value == null ? null : base.resolve(value).normalize();
    }

    /** Decodes a base64 field (standard alphabet, padding optional, whitespace ignored). */
    private String base64(JsonNode node, String at) {
        String value = string(node, at);
        if (value == null) {
            return null;
        }
        try {
            byte[] decoded = Base64.getMimeDecoder().decode(strictBase64(value));
            return new String(decoded, StandardCharsets.ISO_8859_1);
        } catch (IllegalArgumentException e) {
            throw fieldError(at, "not valid base64");
        }
    }

    /** Strips whitespace and rejects characters the MIME decoder would silently skip. */
    private static String strictBase64(String value) {
        StringBuilder clean = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isWhitespace(c)) {
                continue;
            }
            boolean ok = (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '+'
                    || c == '/'
                    || c == '=';
            if (!ok) {
                throw new IllegalArgumentException("bad character");
            }
            clean.append(c);
        }
        if (clean.length() % 4 == 1) {
            throw new IllegalArgumentException("truncated");
        }
        return clean.toString();
    }

    private KubeConfigException fieldError(String at, String problem) {
        return KubeConfigException.in(file, at + ": " + problem);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
