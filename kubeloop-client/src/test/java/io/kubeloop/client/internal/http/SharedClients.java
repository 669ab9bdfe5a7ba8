package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiTransport;

/** What tests outside this package may see of a {@link DefaultApiTransport}'s shared HttpClient. */
public final class SharedClients {

    private SharedClients() {}

    /** How many times the transport replaced its shared HttpClient because its connection was presumed dead. */
    public static long replacements(ApiTransport transport) {
        return ((DefaultApiTransport) transport).clients().current().number();
    }
}
