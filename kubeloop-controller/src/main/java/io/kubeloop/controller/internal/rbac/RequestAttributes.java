package io.kubeloop.controller.internal.rbac;

import io.kubeloop.api.internal.RequestInfo;
import io.kubeloop.controller.rbac.ApiAccess;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A request's RBAC attributes from its HTTP method and URL, resolved as kube-apiserver's request-info
 * resolver does ({@link RequestInfo}), as the recorder's {@link ApiAccess}.
 *
 * <p>Stateless.
 */
public final class RequestAttributes {

    private RequestAttributes() {}

    /**
     * The attributes of one request.
     *
     * @param method the HTTP method
     * @param uri the request URI, query included
     * @return a resource or a non-resource access
     */
    public static ApiAccess of(String method, URI uri) {
        RequestInfo i = RequestInfo.resolve(method, uri.getPath() == null ? "/" : uri.getPath(), key -> {
            List<String> values = query(uri, key);
            return values.isEmpty() ? null : values.get(0);
        });
        return i.resourceRequest()
                ? new ApiAccess.Resource(i.verb(), i.apiGroup(), i.resource(), i.subresource(), i.namespace(), i.name())
                : new ApiAccess.NonResource(i.verb(), i.path());
    }

    private static List<String> query(URI uri, String key) {
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (k.equals(key)) {
                values.add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return values;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
