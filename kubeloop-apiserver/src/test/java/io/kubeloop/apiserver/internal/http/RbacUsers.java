package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.EmbeddedApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Users of a server's token file and the RBAC objects that grant them rights (test helper): user {@code NAME}
 * sends token {@code NAME-token}; {@link #grant} binds a Role of the given rules in a namespace,
 * {@link #grantClusterWide} a ClusterRole.
 */
final class RbacUsers {

    private final RawHttp admin;
    private final EmbeddedApiServer server;
    private int roles;

    RbacUsers(EmbeddedApiServer server) {
        this.server = server;
        this.admin = new RawHttp(server);
    }

    /** A token file naming users {@code names}, each with token {@code NAME-token} and no group. */
    static Path tokenFile(Path dir, List<String> names) {
        StringBuilder lines = new StringBuilder();
        for (String n : names) {
            lines.append(n)
                    .append("-token,")
                    .append(n)
                    .append(",uid-")
                    .append(n)
                    .append('\n');
        }
        try {
            return Files.writeString(dir.resolve("tokens.csv"), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Requests as {@code user}. */
    RawHttp as(String user) {
        return new RawHttp(server, user + "-token");
    }

    /** A rule in JSON: verbs on resources of a group (names all objects unless {@code names} are given). */
    static String rule(String group, String resources, String verbs, String... names) {
        String list = names.length == 0 ? "" : ",\"resourceNames\":[\"" + String.join("\",\"", names) + "\"]";
        return "{\"apiGroups\":[\"" + group + "\"],\"resources\":[\"" + String.join("\",\"", resources.split(","))
                + "\"],\"verbs\":[\"" + String.join("\",\"", verbs.split(",")) + "\"]" + list + "}";
    }

    /** Binds a new Role with {@code rules} to {@code user} in {@code namespace}. */
    void grant(String namespace, String user, String... rules) {
        String role = "role-" + (++roles);
        created(admin.post(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/roles",
                "{\"metadata\":{\"name\":\"" + role + "\"},\"rules\":[" + String.join(",", rules) + "]}"));
        created(admin.post(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/rolebindings",
                "{\"metadata\":{\"name\":\"" + role + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"Role\",\"name\":\"" + role + "\"},\"subjects\":[{\"kind\":\"User\","
                        + "\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"" + user + "\"}]}"));
    }

    /** Binds a new ClusterRole with {@code rules} to {@code user} cluster-wide. */
    void grantClusterWide(String user, String... rules) {
        String role = "cluster-role-" + (++roles);
        created(admin.post(
                "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                "{\"metadata\":{\"name\":\"" + role + "\"},\"rules\":[" + String.join(",", rules) + "]}"));
        created(admin.post(
                "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                "{\"metadata\":{\"name\":\"" + role + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"ClusterRole\",\"name\":\"" + role + "\"},\"subjects\":[{\"kind\":\"User\","
                        + "\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"" + user + "\"}]}"));
    }

    static void created(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }
}
