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

    /**
     * Reads the text form of the Maven goal's {@code <webhooks>}: {@code mutating:PATH:GROUP/VERSION/RESOURCE},
     * {@code validating:PATH:GROUP/VERSION/RESOURCE} or {@code conversion:CRD_NAME}, e.g.
     * {@code mutating:/mutate-example-com-v1-foo:example.com/v1/foos}.
     *
     * @throws CodegenException naming what is wrong
     */
    public static BundleWebhook parse(String text) {
        String[] parts = text.strip().split(":", -1);
        String usage = "a webhook is mutating:PATH:GROUP/VERSION/RESOURCE, validating:PATH:GROUP/VERSION/RESOURCE"
                + " or conversion:CRD_NAME, got \"" + text + "\"";
        if (parts.length == 2 && parts[0].equals("conversion") && !parts[1].isBlank()) {
            return conversion(parts[1]);
        }
        if (parts.length != 3 || !parts[1].startsWith("/")) {
            throw new CodegenException(usage);
        }
        String[] gvr = parts[2].split("/", -1);
        if (gvr.length != 3 || gvr[1].isBlank() || gvr[2].isBlank()) {
            throw new CodegenException(usage);
        }
        return switch (parts[0]) {
            case "mutating" -> mutating(parts[1], gvr[0], gvr[1], gvr[2]);
            case "validating" -> validating(parts[1], gvr[0], gvr[1], gvr[2]);
            default -> throw new CodegenException(usage);
        };
    }

    /** The webhook's name in its configuration: {@code m<resource>-<version>.<group>} or {@code v…}. */
    public String webhookName() {
        return (type == Type.MUTATING ? "m" : "v") + resource + "-" + version + "." + group;
    }
}
