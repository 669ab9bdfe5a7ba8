package io.kubeloop.api;

import io.kubeloop.api.json.KubeJson;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.json.JsonGeneratorBase;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Writes a {@link DynamicObject} as its JSON object: a tree-form object through its tree; a compact one as
 * its exact bytes to a (not pretty-printing) JSON generator, else by copying the tokens of its bytes (no
 * tree; other formats, token buffers, pretty printing). Stateless; thread-safe.
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
        if (gen instanceof JsonGeneratorBase && gen.getPrettyPrinter() == null) {
            gen.writeRawValue(new String(json, StandardCharsets.UTF_8)); // JSON text out: the exact bytes
            return;
        }
        try (JsonParser p = KubeJson.mapper().createParser(json)) {
            p.nextToken();
            gen.copyCurrentStructure(p);
        }
    }
}
