package io.kubeloop.api;

import io.kubeloop.api.spi.ModelSupport;
import java.util.Optional;

/** A {@link ModelSupport} this module's tests provide (META-INF/services), with the types it knows. */
public final class TestModels implements ModelSupport {

    /** The kind both gadget types map to. */
    public static final GroupVersionKind GADGET = new GroupVersionKind("test.kubeloop.io", "v1", "Gadget");

    /** The kind's annotated type: registered second, it still wins. */
    @Kind(group = "test.kubeloop.io", version = "v1", plural = "gadgets", namespaced = false)
    public record Gadget(String apiVersion, String kind, ObjectMeta metadata) implements KubernetesObject {}

    /** Another type of the same kind, not annotated: registered first. */
    public record LegacyGadget(String name) {}

    /** A type that declares its kind its own way (here: known to this support by its class). */
    public record Declared(String name) {}

    public TestModels() {}

    @Override
    public void registerDefaults(Scheme.Builder defaults) {
        defaults.registerDefault(LegacyGadget.class, GADGET, "gadgets", ResourceScope.CLUSTER);
        defaults.registerDefault(Gadget.class, GADGET, "gadgets", ResourceScope.CLUSTER);
    }

    @Override
    public Optional<ResourceMapping> mappingOf(Class<?> type) {
        return type == Declared.class
                ? Optional.of(new ResourceMapping(
                        new GroupVersionKind("test.kubeloop.io", "v1", "Declared"),
                        "declareds",
                        ResourceScope.NAMESPACED))
                : Optional.empty();
    }

    @Override
    public ObjectMeta metadata(Object object) {
        return object instanceof Declared d ? ObjectMeta.of(null, d.name()) : null;
    }
}
