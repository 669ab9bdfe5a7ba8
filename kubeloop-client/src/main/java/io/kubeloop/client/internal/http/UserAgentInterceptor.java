package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Properties;

/**
 * Sets {@code User-Agent} on requests that lack one. The default value mirrors client-go's
 * {@code <binary>/<version> (<os>/<arch>) kubernetes/<commit>} as
 * {@code kubeloop/<version> (<os>/<arch>) java/<java version>}, with Go's os and arch names
 * ({@code linux}, {@code darwin}, {@code windows}; {@code amd64}, {@code arm64}). Thread-safe.
 */
final class UserAgentInterceptor implements Interceptor {

    private final String userAgent;

    UserAgentInterceptor(String userAgent) {
        this.userAgent = userAgent;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        return chain.proceed(
                request.header("User-Agent") != null ? request : request.withHeader("User-Agent", userAgent));
    }

    /** {@code kubeloop/<version> (<os>/<arch>) java/<java version>}. */
    static String defaultUserAgent() {
        return "kubeloop/" + kubeloopVersion() + " (" + goos(System.getProperty("os.name", "unknown")) + "/"
                + goarch(System.getProperty("os.arch", "unknown")) + ") java/"
                + System.getProperty("java.version", "unknown");
    }

    /** The version Maven wrote into {@code version.properties} at build time. */
    static String kubeloopVersion() {
        try (InputStream in = UserAgentInterceptor.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException("reading kubeloop's version.properties failed", e);
        }
    }

    static String goos(String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return "darwin";
        }
        if (os.startsWith("windows")) {
            return "windows";
        }
        return os.replace(' ', '-');
    }

    static String goarch(String osArch) {
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i686" -> "386";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            default -> osArch;
        };
    }
}
