package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.apiserver.internal.patch.RequestJson;
import io.kubeloop.client.FieldValidation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * What the {@code fieldValidation} query parameter of create, update and patch does with unknown
 * fields (found by {@link StructuralSchema#prune}) and duplicate fields (found by
 * {@link #duplicateFields}) in a request body.
 *
 * <ul>
 *   <li>{@link FieldValidation#STRICT} (what kubectl sends): fail. Create and update answer 400 BadRequest
 *       with {@code <Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error:
 *       unknown field "spec.foo"} ({@link Result#error}); patch answers 422 with the same text.</li>
 *   <li>{@link FieldValidation#WARN}, the default: succeed, with one
 *       {@code Warning: 299 - "unknown field \"spec.foo\""} header per field ({@link Result#warnings},
 *       {@link #warningHeader}).</li>
 *   <li>{@link FieldValidation#IGNORE}: succeed silently. Unknown fields are dropped in every mode.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe (pure functions).
 */
public final class FieldValidationCheck {

    private FieldValidationCheck() {}

    /**
     * Reads the query parameter; absent or empty means {@link FieldValidation#WARN}, as on the real server.
     *
     * @throws IllegalArgumentException for any other value, worded as the server's 422 cause
     */
    public static FieldValidation parse(String value) {
        if (value == null || value.isEmpty()) {
            return FieldValidation.WARN;
        }
        for (FieldValidation v : FieldValidation.values()) {
            if (v.value().equals(value)) {
                return v;
            }
        }
        throw new IllegalArgumentException("fieldValidation: Unsupported value: " + GoFormat.quote(value)
                + ": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"");
    }

    /**
     * What the request gets for its unknown and duplicate fields. Duplicates are reported first, as
     * the real decoder finds them before pruning does.
     */
    public static Result check(
            FieldValidation mode, GroupVersionKind gvk, List<String> unknownFields, List<String> duplicateFields) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(gvk, "gvk");
        List<String> problems = new ArrayList<>();
        duplicateFields.forEach(f -> problems.add("duplicate field " + GoFormat.quote(f)));
        unknownFields.forEach(f -> problems.add("unknown field " + GoFormat.quote(f)));
        if (problems.isEmpty() || mode == FieldValidation.IGNORE) {
            return new Result(Optional.empty(), List.of());
        }
        if (mode == FieldValidation.WARN) {
            return new Result(Optional.empty(), problems);
        }
        String kind = gvk.kind();
        return new Result(
                Optional.of(kind + " in version " + GoFormat.quote(gvk.version()) + " cannot be handled as a " + kind
                        + ": strict decoding error: " + String.join(", ", problems)),
                List.of());
    }

    /** The value of one {@code Warning} header: {@code 299 - "unknown field \"spec.foo\""}. */
    public static String warningHeader(String warning) {
        return "299 - " + GoFormat.quote(warning);
    }

    /**
     * Paths of keys that occur twice in the same JSON object ({@code spec.replicas},
     * {@code spec.containers[0].name}), in document order, each once. Trees built by Jackson keep
     * only the last value, so call this on the raw body before parsing it into a tree.
     *
     * @throws IllegalArgumentException when the body is not well-formed JSON
     */
    public static List<String> duplicateFields(byte[] json) {
        List<String> found = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        // one frame per open container: the keys seen (objects) or the next index (arrays)
        Deque<Frame> stack = new ArrayDeque<>();
        try (JsonParser p = RequestJson.parser(json)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case START_OBJECT, START_ARRAY -> stack.push(new Frame(stack.peek(), t == JsonToken.START_ARRAY));
                    case END_OBJECT, END_ARRAY -> {
                        stack.pop();
                        if (!stack.isEmpty()) {
                            stack.peek().valueDone();
                        }
                    }
                    case PROPERTY_NAME -> {
                        Frame f = stack.peek();
                        f.key = p.currentName();
                        if (!f.keys.add(f.key) && reported.add(f.childPath())) {
                            found.add(f.childPath());
                        }
                    }
                    default -> {
                        if (!stack.isEmpty()) {
                            stack.peek().valueDone();
                        }
                    }
                }
            }
        } catch (JacksonException e) {
            throw new IllegalArgumentException("malformed JSON: " + e.getOriginalMessage(), e);
        }
        return found;
    }

    /**
     * An open container. Its path is built only for a duplicate, from its parent's key or index when it opened:
     * a deeply nested body costs one frame a level, not a path string a level.
     */
    private static final class Frame {
        final Frame parent;
        final String keyInParent;
        final int indexInParent;
        final boolean array;
        final Set<String> keys = new HashSet<>();
        String key;
        int index;

        Frame(Frame parent, boolean array) {
            this.parent = parent;
            this.keyInParent = parent == null ? null : parent.key;
            this.indexInParent = parent == null ? 0 : parent.index;
            this.array = array;
        }

        String path() {
            Deque<Frame> chain = new ArrayDeque<>();
            for (Frame f = this; f.parent != null; f = f.parent) {
                chain.push(f);
            }
            StringBuilder path = new StringBuilder();
            for (Frame f : chain) {
                if (f.parent.array) {
                    path.append('[').append(f.indexInParent).append(']');
                } else {
                    path.append(path.isEmpty() ? "" : ".").append(f.keyInParent);
                }
            }
            return path.toString();
        }

        String childPath() {
            String path = path();
            if (array) {
                return path + "[" + index + "]";
            }
            return path.isEmpty() ? key : path + "." + key;
        }

        void valueDone() {
            if (array) {
                index++;
            }
        }
    }

    /**
     * The outcome of {@link #check}.
     *
     * @param error the BadRequest message when the request must fail ({@link FieldValidation#STRICT})
     * @param warnings one text per problem for {@code Warning} headers ({@link FieldValidation#WARN}); wrap each
     *     with {@link #warningHeader}
     */
    public record Result(Optional<String> error, List<String> warnings) {

        public Result {
            Objects.requireNonNull(error, "error");
            warnings = List.copyOf(warnings);
        }
    }
}
