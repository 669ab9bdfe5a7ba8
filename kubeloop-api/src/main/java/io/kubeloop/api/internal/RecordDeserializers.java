package io.kubeloop.api.internal;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.CreatorProperty;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.bean.BeanDeserializer;

/**
 * Reads plain records without Jackson's per-object bookkeeping. For a record Jackson collects the
 * constructor arguments in a fresh buffer object per record (with a bit set and a lookup of what is
 * missing) and buffers unknown properties to replay them; for the records a custom resource model is
 * made of — dozens of them per object, most components absent — that bookkeeping is most of the
 * decoding's time. This modifier replaces Jackson's deserializer of each plain record with one that
 * reads the properties straight into the argument array, using Jackson's own resolved properties (so
 * names, aliases, null handling, nested deserializers and error paths are Jackson's), fills absent
 * components with the values Jackson would, and skips unknown properties as Jackson does when it
 * ignores them.
 *
 * <p>"Plain": every property is a constructor argument (at most 64), none required, injected or a
 * managed reference; no any-setter, unwrapping, external type id, object id or ignored names.
 * Anything else — and any read with an active view, that enables {@code FAIL_ON_UNKNOWN_PROPERTIES},
 * {@code FAIL_ON_MISSING_CREATOR_PROPERTIES} or {@code FAIL_ON_NULL_CREATOR_PROPERTIES}, or that has
 * problem handlers — takes Jackson's own path. Stateless; thread-safe.
 */
public final class RecordDeserializers extends ValueDeserializerModifier {

    private static final long serialVersionUID = 1L;

    @Override
    public ValueDeserializer<?> modifyDeserializer(
            DeserializationConfig config, BeanDescription.Supplier beanDesc, ValueDeserializer<?> deserializer) {
        if (deserializer.getClass() == BeanDeserializer.class
                && deserializer.handledType() != null
                && deserializer.handledType().isRecord()) {
            return new Direct((BeanDeserializer) deserializer);
        }
        return deserializer;
    }

    /** True when {@code deserializer} reads its records on the direct path (for tests). */
    static boolean readsDirectly(ValueDeserializer<?> deserializer) {
        return deserializer instanceof Direct d && d.isPlain();
    }

    /** Jackson's record deserializer with a direct path for plain records. */
    private static final class Direct extends BeanDeserializer {

        private static final long serialVersionUID = 1L;

        /** Whether this record is plain; decided once, after Jackson resolved the properties. */
        private transient volatile Boolean plain;

        Direct(BeanDeserializer jackson) {
            super(jackson);
        }

        @Override
        protected Object _deserializeUsingPropertyBased(JsonParser p, DeserializationContext ctxt) {
            if (!isPlain() || !plainRead(ctxt)) {
                return super._deserializeUsingPropertyBased(p, ctxt);
            }
            SettableBeanProperty[] props = _propertyBasedCreator.allPropertiesInOrder();
            Object[] args = new Object[props.length];
            long seen = 0;
            for (JsonToken t = p.currentToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                String name = p.currentName();
                p.nextToken();
                SettableBeanProperty prop = _propertyBasedCreator.findCreatorProperty(name);
                if (prop == null) {
                    p.skipChildren(); // unknown, and this read ignores unknown properties
                    continue;
                }
                int i = prop.getCreatorIndex();
                args[i] = _deserializeWithErrorWrapping(p, ctxt, prop);
                seen |= 1L << i;
            }
            for (int i = 0; i < props.length; i++) {
                if ((seen & (1L << i)) == 0) {
                    args[i] = absent(props[i], ctxt);
                }
            }
            return _valueInstantiator.createFromObjectWith(ctxt, args);
        }

        /** What Jackson passes for a component absent from the input (it is neither required nor injected). */
        private static Object absent(SettableBeanProperty prop, DeserializationContext ctxt) {
            try {
                Object v = prop.getNullValueProvider().getAbsentValue(ctxt);
                return v != null ? v : prop.getValueDeserializer().getAbsentValue(ctxt);
            } catch (JacksonException e) {
                if (prop.getMember() != null) {
                    e.prependPath(prop.getMember().getDeclaringClass(), prop.getName());
                }
                throw e;
            }
        }

        /** True when this read's settings are those the direct path reproduces. */
        private boolean plainRead(DeserializationContext ctxt) {
            return (_ignoreAllUnknown || !ctxt.isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES))
                    && !ctxt.isEnabled(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                    && !ctxt.isEnabled(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
                    && ctxt.getConfig().getProblemHandlers() == null
                    && (!_needViewProcesing || ctxt.getActiveView() == null);
        }

        private boolean isPlain() {
            Boolean p = plain;
            if (p == null) {
                p = computePlain();
                plain = p;
            }
            return p;
        }

        private boolean computePlain() {
            if (_propertyBasedCreator == null
                    || _anySetter != null
                    || _injectables != null
                    || _objectIdReader != null
                    || _unwrappedPropertyHandler != null
                    || _externalTypeIdHandler != null
                    || _backRefs != null
                    || (_ignorableProps != null && !_ignorableProps.isEmpty())
                    || _includableProps != null
                    || _propertyBasedCreator.hasManagedReferenceProperties()) {
                return false;
            }
            SettableBeanProperty[] props = _propertyBasedCreator.allPropertiesInOrder();
            if (props.length > 64) {
                return false;
            }
            for (int i = 0; i < props.length; i++) {
                SettableBeanProperty prop = props[i];
                if (prop == null
                        || prop.getCreatorIndex() != i
                        || prop.isRequired()
                        || prop.getInjectionDefinition() != null) {
                    return false;
                }
            }
            for (SettableBeanProperty prop : _beanProperties) {
                if (!(prop instanceof CreatorProperty)) {
                    return false;
                }
            }
            return true;
        }
    }
}
