package io.kubeloop.client.discovery;

import java.util.Objects;

/**
 * The server's build information from {@code GET /version}. Fields the server leaves out are empty
 * strings.
 *
 * <p>Immutable and thread-safe.
 *
 * @param major the major version, e.g. {@code 1}
 * @param minor the minor version, e.g. {@code 32} (some distributions append {@code +})
 * @param gitVersion the full version, e.g. {@code v1.32.2}
 * @param gitCommit the source commit
 * @param gitTreeState {@code clean} or {@code dirty}
 * @param buildDate the build time (RFC 3339 text)
 * @param goVersion the Go toolchain version
 * @param compiler the compiler, e.g. {@code gc}
 * @param platform {@code os/arch}, e.g. {@code linux/amd64}
 * @see <a href="https://pkg.go.dev/k8s.io/apimachinery/pkg/version#Info">version.Info</a>
 */
public record ServerVersion(
        String major,
        String minor,
        String gitVersion,
        String gitCommit,
        String gitTreeState,
        String buildDate,
        String goVersion,
        String compiler,
        String platform) {

    public ServerVersion {
        major = Objects.requireNonNullElse(major, "");
        minor = Objects.requireNonNullElse(minor, "");
        gitVersion = Objects.requireNonNullElse(gitVersion, "");
        gitCommit = Objects.requireNonNullElse(gitCommit, "");
        gitTreeState = Objects.requireNonNullElse(gitTreeState, "");
        buildDate = Objects.requireNonNullElse(buildDate, "");
        goVersion = Objects.requireNonNullElse(goVersion, "");
        compiler = Objects.requireNonNullElse(compiler, "");
        platform = Objects.requireNonNullElse(platform, "");
    }
}
