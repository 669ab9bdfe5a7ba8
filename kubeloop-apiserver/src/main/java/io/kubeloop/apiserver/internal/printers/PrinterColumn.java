package io.kubeloop.apiserver.internal.printers;

import java.util.Objects;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * One column of the Table a resource is printed as ({@code kubectl get}).
 *
 * <p>Immutable; {@code cell} must be a pure, thread-safe function.
 *
 * @param name the header, e.g. {@code Ready}
 * @param type {@code string}, {@code integer}, {@code number}, {@code boolean} or {@code date}
 * @param format {@code name} for the name column, else usually empty
 * @param description the column's description
 * @param priority 0 = always shown, &gt;0 = only with {@code -o wide}
 * @param cell computes the cell from the object (String, Number, Boolean or null)
 */
public record PrinterColumn(
        String name, String type, String format, String description, int priority, Function<ObjectNode, Object> cell) {

    public PrinterColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        format = format == null ? "" : format;
        description = description == null ? "" : description;
        Objects.requireNonNull(cell, "cell");
    }

    /** A string column. */
    public static PrinterColumn string(String name, int priority, Function<ObjectNode, Object> cell) {
        return new PrinterColumn(name, "string", "", name + " of the object", priority, cell);
    }
}
