package io.kubeloop.api.yaml;

/**
 * A YAML stream that is not Kubernetes YAML: malformed YAML, a document that is not a mapping, or one
 * that does not bind to the asked type. The message names the document (counted from 1) and, where
 * the parser knows it, the line and column (from 1) in the whole stream.
 *
 * <p>Immutable.
 */
public final class YamlException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final int document;
    private final int line;
    private final int column;

    YamlException(String reason, int document, int line, int column, Throwable cause) {
        super(message(reason, document, line, column), cause);
        this.document = document;
        this.line = line;
        this.column = column;
    }

    private static String message(String reason, int document, int line, int column) {
        StringBuilder m = new StringBuilder("YAML document ").append(document);
        if (line > 0) {
            m.append(", line ").append(line);
            if (column > 0) {
                m.append(", column ").append(column);
            }
        }
        return m.append(": ").append(reason).toString();
    }

    /** The document the problem is in, counted from 1. */
    public int document() {
        return document;
    }

    /** The line in the stream, counted from 1; 0 when unknown. */
    public int line() {
        return line;
    }

    /** The column, counted from 1; 0 when unknown. */
    public int column() {
        return column;
    }
}
