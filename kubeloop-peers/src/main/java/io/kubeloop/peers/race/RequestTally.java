package io.kubeloop.peers.race;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The API requests one operator process sent, counted by verb and resource as the API server would
 * name them ({@code list foos}, {@code watch deployments}, {@code create deployments},
 * {@code update foos/status}, {@code patch deployments}, {@code create events}…). Each contender of
 * the race feeds it from its own client's request hook (kubeloop's interceptors, fabric8's
 * {@code Interceptor}, OkHttp's), which sees every request the operator's code and its framework
 * send, watches included, before the request leaves the process.
 *
 * <p>Paths outside the resource API ({@code /api}, {@code /apis}, {@code /version}, {@code /openapi}
 * …) count as {@code get discovery}.
 *
 * <p><b>Thread safety.</b> Thread-safe; {@link #record} is called from the clients' threads.
 */
public final class RequestTally {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /**
     * Counts one request.
     *
     * @param method the HTTP method
     * @param target the request target: path, optionally with its query
     */
    public void record(String method, String target) {
        counts.computeIfAbsent(key(method, target), k -> new LongAdder()).increment();
    }

    /** The counts so far, {@code "verb resource" → count}, sorted by key. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /**
     * The key of one request: its verb ({@code get}, {@code list}, {@code watch}, {@code create},
     * {@code update}, {@code patch}, {@code delete}) and resource (with {@code /subresource}).
     */
    static String key(String method, String target) {
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        String[] all = path.startsWith("/") ? path.substring(1).split("/") : path.split("/");
        int start;
        if (all.length >= 2 && all[0].equals("api")) {
            start = 2; // /api/v1/...
        } else if (all.length >= 3 && all[0].equals("apis")) {
            start = 3; // /apis/group/version/...
        } else {
            return "get discovery";
        }
        if (all.length <= start) {
            return "get discovery";
        }
        int resource = start;
        if (all[start].equals("namespaces") && all.length >= start + 3) {
            resource = start + 2; // namespaces/{ns}/{resource}
        }
        String name = all.length > resource + 1 ? all[resource + 1] : null;
        String sub = all.length > resource + 2 ? "/" + all[resource + 2] : "";
        String verb = switch (method.toUpperCase(Locale.ROOT)) {
            case "GET", "HEAD" -> name != null ? "get" : isWatch(query) ? "watch" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name != null ? "delete" : "deletecollection";
            default -> method.toLowerCase(Locale.ROOT);
        };
        return verb + " " + all[resource] + sub;
    }

    private static boolean isWatch(String query) {
        for (String param : query.split("&")) {
            if (param.equals("watch=true") || param.equals("watch=1")) {
                return true;
            }
        }
        return false;
    }
}
