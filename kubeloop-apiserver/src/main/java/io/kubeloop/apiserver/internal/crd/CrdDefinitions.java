package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.apiserver.internal.admission.WebhookClient;
import io.kubeloop.apiserver.internal.cel.CelRules;
import io.kubeloop.apiserver.internal.printers.HumanDuration;
import io.kubeloop.apiserver.internal.printers.PrinterColumn;
import io.kubeloop.apiserver.internal.registry.JsonPaths;
import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ObjectConversion;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import io.kubeloop.time.Ticker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Turns a CRD into the {@link ResourceDefinition}s the server routes and advertises: one per version,
 * under the accepted names, with the version's schema, subresources, scale paths and Table columns
 * ({@code Name} + {@code additionalPrinterColumns}, or {@code Name}, {@code Age} when none are declared;
 * {@code date} columns shown as relative ages).
 *
 * <p>Stateless and thread-safe.
 */
final class CrdDefinitions {

    /** Discovery verbs of a terminating CRD's resources. */
    static final List<String> TERMINATING_VERBS = List.of("delete", "deletecollection", "get", "list", "watch");

    private CrdDefinitions() {}

    /**
     * One definition per version of {@code spec}.
     *
     * @param accepted the accepted names (status.acceptedNames)
     * @param servedOnly only versions with {@code served: true}
     * @param terminating the CRD is being deleted
     * @param clock for the relative ages of date columns
     * @param webhooks calls the conversion webhook of a CRD with the {@code Webhook} strategy
     * @param schemas compiles the versions' schemas (validation compiled them before: usually known)
     */
    static List<ResourceDefinition> of(
            CrdSpec spec,
            CrdSpec.Names accepted,
            boolean servedOnly,
            boolean terminating,
            Ticker clock,
            WebhookClient webhooks,
            CompiledSchemas schemas) {
        ObjectConversion conversion =
                spec.conversion().path("strategy").asString("None").equals("Webhook")
                        ? new WebhookConversion(
                                accepted.kind(),
                                spec.conversion().path("webhook").path("clientConfig"),
                                webhooks)
                        : ObjectConversion.NONE;
        String storage = spec.storageVersion().map(CrdSpec.Version::name).orElse(null);
        List<ResourceDefinition> out = new ArrayList<>();
        for (CrdSpec.Version v : spec.versions()) {
            if (servedOnly && !v.served()) {
                continue;
            }
            Set<String> subresources = new HashSet<>();
            if (v.status()) {
                subresources.add("status");
            }
            if (v.scale() != null) {
                subresources.add("scale");
            }
            // a stored CRD passed CrdValidation, whose rules compiled: errors here cannot happen
            CompiledSchemas.Compiled compiled = v.schema() == null ? null : schemas.compile(v.schema(), "");
            StructuralSchema schema = compiled == null ? null : compiled.schema();
            CelRules rules = compiled == null ? CelRules.none() : compiled.rules();
            out.add(new ResourceDefinition(
                    spec.group(),
                    v.name(),
                    accepted.plural(),
                    accepted.kind(),
                    accepted.listKind().isEmpty() ? null : accepted.listKind(),
                    accepted.singular().isEmpty() ? null : accepted.singular(),
                    accepted.shortNames(),
                    accepted.categories(),
                    spec.namespaced(),
                    terminating ? TERMINATING_VERBS : ResourceDefinition.ALL_VERBS,
                    subresources,
                    NameRule.SUBDOMAIN,
                    true,
                    true,
                    false,
                    Set.of(),
                    columns(v, clock),
                    storage,
                    v.scale(),
                    schema,
                    rules,
                    conversion,
                    terminating));
        }
        return out;
    }

    /** The Table columns after Name. */
    static List<PrinterColumn> columns(CrdSpec.Version v, Ticker clock) {
        if (v.columns().isEmpty()) {
            return List.of(new PrinterColumn(
                    "Age",
                    "date",
                    "",
                    "CreationTimestamp is a timestamp representing the " + "server time when this object was created.",
                    0,
                    o -> age(JsonPaths.get(o, ".metadata.creationTimestamp"), clock)));
        }
        List<PrinterColumn> out = new ArrayList<>();
        for (CrdSpec.Column c : v.columns()) {
            ColumnPath path = ColumnPath.parse(c.jsonPath());
            boolean date = c.type().equals("date");
            out.add(new PrinterColumn(c.name(), c.type(), c.format(), c.description(), c.priority(), o -> {
                JsonNode n = path.first(o);
                return date ? age(n, clock) : JsonPaths.cell(n);
            }));
        }
        return out;
    }

    private static Object age(JsonNode timestamp, Ticker clock) {
        if (timestamp == null || !timestamp.isString()) {
            return null;
        }
        return HumanDuration.since(timestamp.asString(), clock.instant());
    }
}
