package io.kubeloop.api.internal;

import java.time.Instant;
import tools.jackson.databind.module.SimpleModule;

/**
 * What kubeloop adds to Jackson for Kubernetes JSON: {@link TimestampDeserializer} for {@link Instant},
 * {@link RecordDeserializers} and {@link RecordInstantiators} for records. None changes what is read, only
 * how fast.
 */
public final class KubeJsonModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    /** The module. */
    public KubeJsonModule() {
        super("kubeloop-kubernetes-json");
        addDeserializer(Instant.class, new TimestampDeserializer());
    }

    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.addValueInstantiators(new RecordInstantiators());
        context.addDeserializerModifier(new RecordDeserializers());
    }
}
