package io.kubeloop.apiserver.internal.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fixed tokens with fixed users: the server's admin token and the users of a static token file, in
 * kube-apiserver's {@code --token-auth-file} format: one CSV line per token,
 * {@code token,user,uid,"group1,group2"} (the groups column optional; blank lines and lines starting with
 * {@code #} are skipped).
 *
 * <p>Immutable and thread-safe. Tokens are compared in constant time.
 */
public final class StaticTokens implements TokenAuthenticator {

    private final Map<String, UserInfo> users;

    /** Tokens mapped to their users. */
    public StaticTokens(Map<String, UserInfo> users) {
        this.users = Map.copyOf(users);
    }

    /**
     * Reads a token file.
     *
     * @throws IllegalArgumentException naming the file and line when a line is malformed or a token repeats
     * @throws UncheckedIOException when the file cannot be read
     */
    public static StaticTokens read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + file + ": " + e.getMessage(), e);
        }
        Map<String, UserInfo> users = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> cols = csv(line);
            String where = "token file " + file + ", line " + (i + 1);
            if (cols.size() < 3 || cols.get(0).isEmpty() || cols.get(1).isEmpty()) {
                throw new IllegalArgumentException(where + ": expected token,user,uid[,\"group1,group2\"]");
            }
            List<String> groups = new ArrayList<>();
            if (cols.size() > 3) {
                for (String g : cols.get(3).split(",")) {
                    if (!g.isBlank()) {
                        groups.add(g.strip());
                    }
                }
            }
            if (users.put(cols.get(0), new UserInfo(cols.get(1), cols.get(2), groups, Map.of())) != null) {
                throw new IllegalArgumentException(where + ": the token is already used on an earlier line");
            }
        }
        return new StaticTokens(users);
    }

    /** Splits one CSV line: fields separated by commas, a field in double quotes may hold commas and "". */
    static List<String> csv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        out.add(field.toString());
        return out;
    }

    /** This file's tokens and {@code others}'; {@code others} win on a clash. */
    public StaticTokens with(Map<String, UserInfo> others) {
        Map<String, UserInfo> all = new LinkedHashMap<>(users);
        all.putAll(others);
        return new StaticTokens(all);
    }

    @Override
    public Optional<UserInfo> authenticate(String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        UserInfo found = null;
        for (Map.Entry<String, UserInfo> e : users.entrySet()) {
            if (MessageDigest.isEqual(given, e.getKey().getBytes(StandardCharsets.UTF_8))) {
                found = e.getValue();
            }
        }
        return Optional.ofNullable(found);
    }
}
