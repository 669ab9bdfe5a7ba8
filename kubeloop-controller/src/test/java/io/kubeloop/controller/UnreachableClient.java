package io.kubeloop.controller;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.net.URI;

/** A client of an API server that is not there (port 9 on loopback): for managers whose tests make no request. */
public final class UnreachableClient {

    private UnreachableClient() {}

    /** A new client; the caller closes it. */
    public static KubeClient create() {
        return KubeClient.create(
                new ClientConfig(
                        URI.create("https://127.0.0.1:9"),
                        SslContextBuilder.create().insecureSkipTlsVerify().build(),
                        null,
                        AuthProvider.none(),
                        "default",
                        null,
                        "nowhere"),
                ClientOptions.defaults());
    }
}
