package io.kubeloop.client.discovery;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.ApiTransport;
import io.kubeloop.client.http.TransportException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Test-only transport: the bare JDK HttpClient, no interceptors. */
final class JdkHttpTransport implements ApiTransport {

    private final URI server;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    JdkHttpTransport(URI server) {
        this.server = server;
    }

    @Override
    public URI server() {
        return server;
    }

    @Override
    public ApiResponse send(ApiRequest request) {
        HttpRequest.Builder b = HttpRequest.newBuilder(request.uri()).timeout(Duration.ofSeconds(10));
        request.headers().forEach((name, values) -> values.forEach(v -> b.header(name, v)));
        b.method(
                request.method(),
                request.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        try {
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return ApiResponse.buffered(request, r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new TransportException(request.uri(), "GET " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(request.uri(), "interrupted", e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
