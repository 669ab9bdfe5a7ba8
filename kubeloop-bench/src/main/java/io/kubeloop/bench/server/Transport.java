package io.kubeloop.bench.server;

/**
 * How a watch reaches the driver: a chunked HTTP/1.1 response of newline-terminated events, or one
 * WebSocket text message per event (fabric8's mock serves only the latter).
 */
enum Transport {
    /** {@code GET ...?watch=true}, chunked HTTP/1.1 body. */
    HTTP("chunked HTTP"),
    /** WebSocket upgrade of the same URL, one text message per event. */
    WEBSOCKET("WebSocket");

    private final String label;

    Transport(String label) {
        this.label = label;
    }

    /** The name used in the report. */
    String label() {
        return label;
    }

    /** Parses {@code http} or {@code ws}. */
    static Transport of(String s) {
        return switch (s) {
            case "http", "chunked" -> HTTP;
            case "ws", "websocket" -> WEBSOCKET;
            default -> throw new IllegalArgumentException("unknown watch transport '" + s + "' (http or ws)");
        };
    }
}
