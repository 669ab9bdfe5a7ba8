package io.kubeloop.codegen;

import java.util.List;
import java.util.Objects;

/**
 * A webhook an operator serves, for its {@link OperatorBundle}: a mutating or validating admission webhook
 * for one resource at a path of the operator's webhook server, or the conversion webhook of one of its CRDs.
 *
 * @param type what the webhook does
 * @param path the path on the webhook server, e.g. {@code /mutate-example-com-v1-foo}
 * @param group the resource's API group (admission webhooks)
 * @param version the resource's version (admission webhooks)
 * @param resource the plural resource (admission webhooks), or the CRD's name (conversion)
 * @param operations {@code CREATE}, {@code UPDATE}, {@code DELETE} (admission webhooks)
 */
public record BundleWebhook(
        Type type, String path, String group, String version, String resource, List<String> operations) {

    /** What a webhook does. */
    public enum Type {
        MUTATING,
        VALIDATING,
        CONVERSION
    }

    public BundleWebhook {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(resource, "resource");
        operations = List.copyOf(operations);
    }

    /** A defaulting webhook at {@code path} for CREATE and UPDATE of {@code group/version resource}. */
    public static BundleWebhook mutating(String path, String group, String version, String resource) {
        return new BundleWebhook(Type.MUTATING, path, group, version, resource, List.of("CREATE", "UPDATE"));
    }

    /** A validating webhook at {@code path} for CREATE and UPDATE of {@code group/version resource}. */
    public static BundleWebhook validating(String path, String group, String version, String resource) {
        return new BundleWebhook(Type.VALIDATING, path, group, version, resource, List.of("CREATE", "UPDATE"));
    }

    /** The conversion webhook ({@code /convert}) of the bundle's CRD {@code crdName}. */
    public static BundleWebhook conversion(String crdName) {
        return new BundleWebhook(Type.CONVERSION, "/convert", "", "", crdName, List.of());
    }

    /** The webhook's name in its configuration: {@code m<resource>-<version>.<group>} or {@code v…}. */
    public String webhookName() {
        return (type == Type.MUTATING ? "m" : "v") + resource + "-" + version + "." + group;
    }
}
