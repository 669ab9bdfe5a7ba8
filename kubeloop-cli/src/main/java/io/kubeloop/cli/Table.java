package io.kubeloop.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints aligned columns as kubectl does (Go's tabwriter with minimum width 6 and padding 3; the
 * last column is not padded). Not thread-safe.
 */
final class Table {

    private static final int MIN_WIDTH = 6;
    private static final int PADDING = 3;

    private final List<List<String>> rows = new ArrayList<>();

    Table row(List<String> cells) {
        rows.add(cells);
        return this;
    }

    void print(PrintWriter out) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int c = 0; c < row.size() - 1; c++) {
                widths[c] = Math.max(widths[c], Math.max(MIN_WIDTH, row.get(c).length() + PADDING));
            }
        }
        StringBuilder line = new StringBuilder();
        for (List<String> row : rows) {
            line.setLength(0);
            for (int c = 0; c < row.size(); c++) {
                String cell = row.get(c);
                line.append(cell);
                if (c < row.size() - 1) {
                    line.repeat(' ', widths[c] - cell.length());
                }
            }
            out.println(line);
        }
        out.flush();
    }
}
