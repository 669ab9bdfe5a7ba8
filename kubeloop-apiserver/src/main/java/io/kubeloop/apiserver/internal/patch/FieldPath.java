package io.kubeloop.apiserver.internal.patch;

import java.util.ArrayList;
import java.util.List;

/**
 * A path to a field, list item or set member of an object, e.g. {@code .spec.replicas} or
 * {@code .spec.template.spec.containers[name="web"].image} in structured-merge-diff's notation.
 *
 * @param elements the steps from the object root; empty for the root itself
 */
public record FieldPath(List<PathElement> elements) {

    /** The root path. */
    public static final FieldPath ROOT = new FieldPath(List.of());

    public FieldPath {
        elements = List.copyOf(elements);
    }

    /** A path of struct fields or map keys, e.g. {@code FieldPath.of("spec", "replicas")}. */
    public static FieldPath of(String... fields) {
        List<PathElement> out = new ArrayList<>();
        for (String f : fields) {
            out.add(new PathElement.Field(f));
        }
        return new FieldPath(out);
    }

    /** This path extended by one element. */
    public FieldPath child(PathElement element) {
        List<PathElement> out = new ArrayList<>(elements);
        out.add(element);
        return new FieldPath(out);
    }

    /** The path as the real server prints it in conflict messages. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        elements.forEach(sb::append);
        return sb.toString();
    }
}
