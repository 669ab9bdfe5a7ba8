package io.kubeloop.client.internal.http;

import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import java.util.Optional;

/**
 * Adds the {@code Authorization} header from an {@link AuthProvider} (unless the request already has
 * one). When the server answers 401 to credentials we sent, the provider is told to
 * {@linkplain AuthProvider#invalidate() drop them} and the request is sent once more with whatever
 * it offers next (a rotated token file, a fresh exec-plugin token); a second 401 is returned as is.
 * A 401 to a request sent without credentials is returned at once.
 *
 * <p>Thread-safe when the provider is.
 */
final class AuthInterceptor implements Interceptor {

    private final AuthProvider auth;

    AuthInterceptor(AuthProvider auth) {
        this.auth = auth;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        if (request.header("Authorization") != null) {
            return chain.proceed(request);
        }
        Optional<String> credentials = auth.authorization();
        if (credentials.isEmpty()) {
            return chain.proceed(request);
        }
        ApiResponse response = chain.proceed(request.withHeader("Authorization", credentials.get()));
        if (response.status() != 401) {
            return response;
        }
        auth.invalidate();
        Optional<String> fresh = auth.authorization();
        if (fresh.isEmpty()) {
            return response;
        }
        response.close();
        return chain.proceed(request.withHeader("Authorization", fresh.get()));
    }
}
