package io.kubeloop.api.json;

import io.kubeloop.api.internal.JsonScanner;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The {@code fieldsV1} of managed-fields entries read straight from bytes: a tree that cannot be changed
 * ({@link Frozen.FrozenObject}s, every empty object one instance), and a tree whose bytes equal one read
 * before in the same stream is that tree again (through the stream's {@link SharedRecords}): the managers of a
 * stream's objects record the same field sets again and again.
 *
 * <p>Stateless; used by one {@link BytesInput} at a time, on its thread.
 */
final class FieldsTrees {

    /** The key of the stream's shared {@code fieldsV1} trees in its {@link SharedRecords}. */
    private static final Function<?, ?>[] FIELDS_V1 = {Function.identity()};

    private FieldsTrees() {}

    /** The object at {@code in}'s position (an opening brace) as a frozen tree; moves past it. */
    static JsonNode read(BytesInput in) {
        int start = in.pos;
        int objectEnd = JsonScanner.valueEnd(in.b, start, in.end);
        if (objectEnd < 0) {
            throw BytesInput.fallback();
        }
        SharedRecords shared = in.owner.shared;
        boolean look = shared.worthLooking(FIELDS_V1, 0);
        int hash = look ? SharedRecords.hash(in.b, start, objectEnd) : 0;
        if (look) {
            Object known = shared.find(FIELDS_V1, 0, in.b, start, objectEnd, hash);
            if (known != null) {
                in.pos = objectEnd;
                return (JsonNode) known;
            }
        }
        JsonNode tree = frozenObject(in);
        if (look && in.pos == objectEnd) {
            shared.put(FIELDS_V1, 0, in.b, start, objectEnd, hash, tree);
        }
        return tree;
    }

    /**
     * The object at {@code in}'s position as a tree that cannot be changed. {@code fieldsV1} holds only objects (a
     * trie of field-path elements); any other value in it is read by Jackson, then frozen.
     */
    private static JsonNode frozenObject(BytesInput in) {
        String name = in.firstName(JsonNode.class);
        if (name == null) {
            return Frozen.FrozenObject.EMPTY;
        }
        Collected collected = in.collected;
        int mark = collected.mark();
        for (; name != null; name = in.nextName()) {
            collected.push(name);
            collected.push(in.at(in.pos) == '{' ? frozenObject(in) : Frozen.tree(in.value(JsonNode.class)));
        }
        return new Frozen.FrozenObject(collected.<JsonNode>map(mark));
    }
}
