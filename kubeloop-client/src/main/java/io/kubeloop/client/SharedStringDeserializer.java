package io.kubeloop.client;

import io.kubeloop.api.internal.StringTable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.jdk.StringDeserializer;

/**
 * Jackson's String deserializer, whose strings go through the {@link StringTable} that the reading
 * context carries as the attribute {@code StringTable.class} (when it carries one): typed objects
 * decoded from one list or watch stream share their repeated strings, as {@code DynamicObject}s do.
 * Without the attribute, exactly Jackson's String deserializer.
 *
 * <p>Stateless; thread-safe (the table it uses belongs to the read, not to this deserializer).
 */
final class SharedStringDeserializer extends StringDeserializer {

    private static final long serialVersionUID = 1L;

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) {
        if (!(ctxt.getAttribute(StringTable.class) instanceof StringTable table)) {
            return super.deserialize(p, ctxt);
        }
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            // the parser's characters, looked up before any String is made: a repeated value allocates nothing
            return table.share(p.getStringCharacters(), p.getStringOffset(), p.getStringLength());
        }
        return table.share(super.deserialize(p, ctxt));
    }
}
