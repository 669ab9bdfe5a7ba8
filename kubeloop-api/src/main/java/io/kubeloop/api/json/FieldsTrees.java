package io.kubeloop.api.json;

import io.kubeloop.api.internal.JsonScanner;
import java.util.Arrays;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The {@code fieldsV1} of managed-fields entries read straight from bytes: a tree that cannot be changed
 * (a {@link Frozen.FrozenObject} whose members are kept as the object's JSON bytes until first asked for,
 * {@link LazyFields}; the empty object one instance), and a tree whose bytes equal one read before in the
 * same stream is that tree again (through the stream's {@link SharedRecords}): the managers of a stream's
 * objects record the same field sets again and again.
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
        int objectEnd = in.at(start) == '{' ? JsonScanner.valueEnd(in.b, start, in.end) : -1;
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
        in.pos = objectEnd;
        if (in.at(JsonScanner.skipSpace(in.b, start + 1, objectEnd)) == '}') {
            return Frozen.FrozenObject.EMPTY;
        }
        // one copy of the bytes: the tree's, and the shared table's key
        byte[] json = Arrays.copyOfRange(in.b, start, objectEnd);
        JsonNode tree = new Frozen.FrozenObject(new LazyFields(json));
        if (look) {
            shared.putKey(FIELDS_V1, 0, json, hash, tree);
        }
        return tree;
    }
}
