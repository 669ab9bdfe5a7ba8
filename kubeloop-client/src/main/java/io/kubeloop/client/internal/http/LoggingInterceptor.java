package io.kubeloop.client.internal.http;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import io.kubeloop.client.http.TransportException;
import io.kubeloop.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Request logging at kubectl's {@code -v} levels, modelled on client-go's debugging round tripper
 * ({@code transport/round_trippers.go}) and body logging ({@code rest/request.go}):
 * <ul>
 * <li>6: {@code GET https://… 200 OK in 12 milliseconds}</li>
 * <li>7: {@code GET https://…}, {@code Request Headers:} with one indented line per value, then
 *     {@code Response Status: 200 OK in 12 milliseconds}</li>
 * <li>8: as 7, plus {@code Request Body:}, {@code Response Headers:} and {@code Response Body:}
 *     truncated at 1024 characters ({@code … [truncated N chars]})</li>
 * <li>9: a {@code curl -v -XGET …} line, the level-6 line, response headers, body truncated at
 *     10240 characters; 10 and above: the whole body</li>
 * </ul>
 * Each line goes to the sink on its own. {@code Authorization} and {@code Proxy-Authorization}
 * values are masked as client-go does ({@code Bearer <masked>}, {@code Basic <masked>}, otherwise
 * {@code <masked>}); credentials are never written. Bodies of streaming (watch) responses are never
 * read here; bodies with control characters are summarised instead of printed.
 *
 * <p>Thread-safe when the sink is (lines of concurrent requests may interleave).
 */
final class LoggingInterceptor implements Interceptor {

    private final int verbosity;
    private final Consumer<String> sink;
    private final Ticker ticker;

    LoggingInterceptor(int verbosity, Consumer<String> sink, Ticker ticker) {
        this.verbosity = verbosity;
        this.sink = sink;
        this.ticker = ticker;
    }

    @Override
    public ApiResponse intercept(Chain chain) {
        ApiRequest request = chain.request();
        if (verbosity < 6) {
            return chain.proceed(request);
        }
        String line = request.method() + " " + request.uri();
        if (verbosity >= 9) {
            sink.accept(curl(request));
        } else if (verbosity >= 7) {
            sink.accept(line);
            logHeaders("Request Headers:", request.headers());
        }
        if (verbosity >= 8 && request.body() != null && request.body().length > 0) {
            sink.accept("Request Body: " + bodyText(request.body()));
        }
        long start = ticker.nanoTime();
        ApiResponse response;
        try {
            response = chain.proceed(request);
        } catch (TransportException e) {
            sink.accept(line + " failed in " + millis(start) + " milliseconds: " + e.getMessage());
            throw e;
        }
        String status = HttpStatusText.of(response.status()) + " in " + millis(start) + " milliseconds";
        if (verbosity == 7 || verbosity == 8) {
            sink.accept("Response Status: " + status);
        } else {
            sink.accept(line + " " + status);
        }
        if (verbosity >= 8) {
            logHeaders("Response Headers:", response.headers());
            if (!request.streaming()) {
                byte[] body = response.bytes();
                if (body.length > 0) {
                    sink.accept("Response Body: " + bodyText(body));
                }
            }
        }
        return response;
    }

    private long millis(long startNanos) {
        return (ticker.nanoTime() - startNanos) / 1_000_000;
    }

    private void logHeaders(String title, Map<String, List<String>> headers) {
        sink.accept(title);
        for (Map.Entry<String, List<String>> e : sorted(headers)) {
            for (String value : e.getValue()) {
                sink.accept("    " + e.getKey() + ": " + mask(e.getKey(), value));
            }
        }
    }

    private static List<Map.Entry<String, List<String>>> sorted(Map<String, List<String>> headers) {
        List<Map.Entry<String, List<String>>> entries = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (!e.getKey().startsWith(":")) {
                entries.add(e);
            }
        }
        entries.sort(Map.Entry.comparingByKey(String.CASE_INSENSITIVE_ORDER));
        return entries;
    }

    /** {@code curl -v -XGET  -H "Accept: application/json" 'https://…'}, as client-go prints it. */
    private static String curl(ApiRequest request) {
        StringBuilder headers = new StringBuilder();
        for (Map.Entry<String, List<String>> e : sorted(request.headers())) {
            for (String value : e.getValue()) {
                headers.append(" -H ").append(goQuote(e.getKey() + ": " + mask(e.getKey(), value)));
            }
        }
        return "curl -v -X" + request.method() + " " + headers + " '" + request.uri() + "'";
    }

    private static String goQuote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** client-go's {@code maskValue}: keeps a known scheme name, hides the credentials. */
    static String mask(String name, String value) {
        if (!name.equalsIgnoreCase("Authorization") && !name.equalsIgnoreCase("Proxy-Authorization")) {
            return value;
        }
        if (value.isEmpty()) {
            return "";
        }
        int space = value.indexOf(' ');
        String scheme = space > 0 ? value.substring(0, space) : value;
        return switch (scheme.toLowerCase(Locale.ROOT)) {
            case "bearer", "basic", "negotiate" -> value.length() > scheme.length() + 1 ? scheme + " <masked>" : scheme;
            default -> "<masked>";
        };
    }

    private String bodyText(byte[] body) {
        for (byte b : body) {
            if (b >= 0 && b < 0x0a) {
                return "<binary body, " + body.length + " bytes>";
            }
        }
        String text = new String(body, StandardCharsets.UTF_8);
        int max = verbosity >= 10 ? Integer.MAX_VALUE : verbosity == 9 ? 10240 : 1024;
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, max) + " [truncated " + (text.length() - max) + " chars]";
    }
}
