package io.kubeloop.api;

import io.kubeloop.api.json.KubeJson;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Writes a {@link DynamicObject} as its JSON object: a tree-form object through its tree, a compact one by
 * copying the tokens of its bytes to the generator (no tree). Stateless; thread-safe.
 */
final class DynamicObjectSerializer extends StdSerializer<DynamicObject> {

    DynamicObjectSerializer() {
        super(DynamicObject.class);
    }

    @Override
    public void serialize(DynamicObject value, JsonGenerator gen, SerializationContext ctxt) {
        byte[] json = value.jsonBytes();
        if (json == null) {
            value.node().serialize(gen, ctxt);
            return;
        }
        try (JsonParser p = KubeJson.mapper().createParser(json)) {
            p.nextToken();
            gen.copyCurrentStructure(p);
        }
    }
}
