package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ApiErrors.FieldError;
import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.schema.NonStructuralSchemaException;
import io.kubeloop.apiserver.internal.storage.Metadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Create/update rules of CustomResourceDefinitions (apiextensions-apiserver's
 * {@code validation.go} and {@code strategy.go}): defaults ({@code singular = lower(kind)},
 * {@code listKind = kind + "List"}, conversion {@code None}), validation with one cause per problem
 * (name = {@code <plural>.<group>}, dotted group, lowercase DNS-1035 names, scope, exactly one storage
 * version, unique version names, a structural schema per version, scale paths, printer columns, an
 * immutable group and — once established — scope; the {@link ApiApproval} annotation of a protected
 * group, checked last), and the server-kept status fields
 * ({@code storedVersions}, empty {@code acceptedNames} on create).
 *
 * <p>Stateless and thread-safe; mutates only the object passed in.
 */
final class CrdValidation {

    private static final List<String> SCOPES = List.of("Cluster", "Namespaced");
    private static final List<String> COLUMN_TYPES = List.of("boolean", "date", "integer", "number", "string");
    private static final List<String> COLUMN_FORMATS =
            List.of("byte", "date", "date-time", "double", "float", "int32", "int64", "password");

    private CrdValidation() {}

    /**
     * Defaults, validates and maintains the status of a CRD about to be stored.
     *
     * @param crdDefinition the customresourcedefinitions resource (names the 422)
     * @param crd the object (mutable)
     * @param old the stored object on update, null on create
     * @throws io.kubeloop.api.errors.InvalidException 422 with one cause per problem
     */
    public static void admit(ResourceDefinition crdDefinition, ObjectNode crd, ObjectNode old) {
        admit(crdDefinition, crd, old, new CompiledSchemas(0));
    }

    /**
     * As {@link #admit(ResourceDefinition, ObjectNode, ObjectNode)}, compiling the versions' schemas
     * through {@code schemas} (a schema it compiled before is not compiled again).
     */
    static void admit(ResourceDefinition crdDefinition, ObjectNode crd, ObjectNode old, CompiledSchemas schemas) {
        applyDefaults(crd);
        List<FieldError> errors = validate(crd, schemas);
        if (old != null) {
            String oldGroup = old.path("spec").path("group").asString("");
            String group = crd.path("spec").path("group").asString("");
            if (!oldGroup.equals(group)) {
                errors.add(FieldError.invalid("spec.group", group, "field is immutable"));
            }
            String oldScope = old.path("spec").path("scope").asString("");
            String scope = crd.path("spec").path("scope").asString("");
            if (Conditions.isTrue(old, Conditions.ESTABLISHED) && !oldScope.equals(scope)) {
                errors.add(FieldError.invalid("spec.scope", scope, "field is immutable"));
            }
        }
        ApiApproval.validate(crd, old).ifPresent(errors::add);
        if (!errors.isEmpty()) {
            throw ApiErrors.invalid(crdDefinition, Metadata.text(crd, "name"), errors);
        }
        maintainStatus(crd, old == null);
    }

    /** Fills in {@code singular}, {@code listKind}, conversion strategy and version flags. */
    static void applyDefaults(ObjectNode crd) {
        if (!(crd.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        if (spec.get("names") instanceof ObjectNode names) {
            String kind = names.path("kind").asString("");
            if (names.path("singular").asString("").isEmpty() && !kind.isEmpty()) {
                names.put("singular", kind.toLowerCase(Locale.ROOT));
            }
            if (names.path("listKind").asString("").isEmpty() && !kind.isEmpty()) {
                names.put("listKind", kind + "List");
            }
        }
        ObjectNode conversion = spec.get("conversion") instanceof ObjectNode c ? c : spec.putObject("conversion");
        if (conversion.path("strategy").asString("").isEmpty()) {
            conversion.put("strategy", "None");
        }
        if (spec.get("versions") instanceof ArrayNode versions) {
            for (JsonNode v : versions) {
                if (v instanceof ObjectNode vo) {
                    if (!vo.has("served")) {
                        vo.put("served", false);
                    }
                    if (!vo.has("storage")) {
                        vo.put("storage", false);
                    }
                }
            }
        }
    }

    /** Every problem of a (defaulted) CRD. */
    static List<FieldError> validate(ObjectNode crd) {
        return validate(crd, new CompiledSchemas(0));
    }

    /** Every problem of a (defaulted) CRD, its schemas compiled through {@code schemas}. */
    static List<FieldError> validate(ObjectNode crd, CompiledSchemas schemas) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = crd.path("spec");
        String name = Metadata.text(crd, "name");
        String group = spec.path("group").asString("");
        JsonNode names = spec.path("names");
        String plural = names.path("plural").asString("");
        if (!name.equals(plural + "." + group)) {
            errs.add(FieldError.invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group"));
        }
        if (group.isEmpty()) {
            errs.add(FieldError.required("spec.group", ""));
        } else {
            NameRule.SUBDOMAIN.validate(group).forEach(p -> errs.add(FieldError.invalid("spec.group", group, p)));
            if (!group.contains(".")) {
                errs.add(FieldError.invalid("spec.group", group, "should be a domain with at least one dot"));
            }
        }
        String scope = spec.path("scope").asString("");
        if (scope.isEmpty()) {
            errs.add(FieldError.required("spec.scope", ""));
        } else if (!SCOPES.contains(scope)) {
            errs.add(FieldError.notSupported("spec.scope", scope, SCOPES));
        }
        validateNames(names, errs);
        validateVersions(spec.path("versions"), schemas, errs);
        String strategy = spec.path("conversion").path("strategy").asString("None");
        if (!strategy.equals("None") && !strategy.equals("Webhook")) {
            errs.add(FieldError.notSupported("spec.conversion.strategy", strategy, List.of("None", "Webhook")));
        }
        JsonNode webhook = spec.path("conversion").path("webhook");
        if (strategy.equals("Webhook")) {
            if (!webhook.isObject()) {
                errs.add(FieldError.required("spec.conversion.webhook", "required when strategy is set to Webhook"));
            } else {
                JsonNode client = webhook.path("clientConfig");
                if (client.path("url").isString() == client.path("service").isObject()) {
                    errs.add(FieldError.required(
                            "spec.conversion.webhook.clientConfig", "exactly one of url or service is required"));
                }
                boolean v1 = false;
                for (JsonNode v : webhook.path("conversionReviewVersions")) {
                    v1 |= v.asString().equals("v1") || v.asString().equals("v1beta1");
                }
                if (!v1) {
                    errs.add(FieldError.required(
                            "spec.conversion.webhook.conversionReviewVersions",
                            "must include at least one of v1, v1beta1"));
                }
            }
        } else if (webhook.isObject()) {
            errs.add(FieldError.forbidden(
                    "spec.conversion.webhook", "should not be set when strategy is not set to Webhook"));
        }
        return errs;
    }

    private static void validateNames(JsonNode names, List<FieldError> errs) {
        String plural = names.path("plural").asString("");
        String singular = names.path("singular").asString("");
        String kind = names.path("kind").asString("");
        String listKind = names.path("listKind").asString("");
        if (plural.isEmpty()) {
            errs.add(FieldError.required("spec.names.plural", ""));
        } else {
            dns1035("spec.names.plural", plural, errs);
        }
        if (singular.isEmpty()) {
            errs.add(FieldError.required("spec.names.singular", ""));
        } else {
            dns1035("spec.names.singular", singular, errs);
        }
        if (kind.isEmpty()) {
            errs.add(FieldError.required("spec.names.kind", ""));
        } else {
            dns1035("spec.names.kind", kind.toLowerCase(Locale.ROOT), errs);
        }
        if (listKind.isEmpty()) {
            errs.add(FieldError.required("spec.names.listKind", ""));
        } else {
            dns1035("spec.names.listKind", listKind.toLowerCase(Locale.ROOT), errs);
            if (listKind.equals(kind)) {
                errs.add(FieldError.invalid("spec.names.listKind", listKind, "kind and listKind may not be the same"));
            }
        }
        List<String> shortNames = CrdSpec.strings(names.path("shortNames"));
        for (int i = 0; i < shortNames.size(); i++) {
            dns1035("spec.names.shortNames[" + i + "]", shortNames.get(i), errs);
        }
        List<String> categories = CrdSpec.strings(names.path("categories"));
        for (int i = 0; i < categories.size(); i++) {
            dns1035("spec.names.categories[" + i + "]", categories.get(i), errs);
        }
    }

    private static void dns1035(String field, String value, List<FieldError> errs) {
        List<String> problems = NameRule.DNS1035.validate(value);
        if (!problems.isEmpty()) {
            errs.add(FieldError.invalid(field, value, String.join(",", problems)));
        }
    }

    private static void validateVersions(JsonNode versions, CompiledSchemas schemas, List<FieldError> errs) {
        int storage = 0;
        boolean unique = true;
        Set<String> seen = new HashSet<>();
        int i = 0;
        for (JsonNode v : versions) {
            String path = "spec.versions[" + i + "]";
            String vname = v.path("name").asString("");
            if (vname.isEmpty()) {
                errs.add(FieldError.required(path + ".name", ""));
            } else {
                dns1035(path + ".name", vname, errs);
                unique &= seen.add(vname);
            }
            if (v.path("storage").asBoolean(false)) {
                storage++;
            }
            validateSchema(v.path("schema").get("openAPIV3Schema"), path + ".schema.openAPIV3Schema", schemas, errs);
            validateScale(v.path("subresources").get("scale"), path + ".subresources.scale", errs);
            int j = 0;
            for (JsonNode c : v.path("additionalPrinterColumns")) {
                validateColumn(c, path + ".additionalPrinterColumns[" + j++ + "]", errs);
            }
            i++;
        }
        String rendered = versions.isMissingNode() ? "null" : versions.toString();
        if (!unique) {
            errs.add(new FieldError(
                    "FieldValueInvalid",
                    "spec.versions",
                    "Invalid value: " + rendered + ": must contain unique version names"));
        }
        if (storage != 1) {
            errs.add(new FieldError(
                    "FieldValueInvalid",
                    "spec.versions",
                    "Invalid value: " + rendered + ": must have exactly one version marked as storage version"));
        }
    }

    private static void validateSchema(JsonNode schema, String path, CompiledSchemas schemas, List<FieldError> errs) {
        if (schema == null || schema.isNull()) {
            errs.add(FieldError.required(path, "schemas are required"));
            return;
        }
        try {
            for (Status.Cause c : schemas.compile(schema, path).errors()) {
                errs.add(new FieldError(c.reason(), c.field(), c.message()));
            }
        } catch (NonStructuralSchemaException e) {
            for (Status.Cause c : e.causes()) {
                errs.add(new FieldError(c.reason(), c.field(), c.message()));
            }
        }
    }

    private static void validateScale(JsonNode scale, String path, List<FieldError> errs) {
        if (scale == null || !scale.isObject()) {
            return;
        }
        String spec = scale.path("specReplicasPath").asString("");
        String status = scale.path("statusReplicasPath").asString("");
        String selector = scale.path("labelSelectorPath").asString("");
        if (spec.isEmpty()) {
            errs.add(FieldError.required(path + ".specReplicasPath", ""));
        } else if (!spec.startsWith(".spec.")) {
            errs.add(FieldError.invalid(path + ".specReplicasPath", spec, "should be a json path under .spec"));
        }
        if (status.isEmpty()) {
            errs.add(FieldError.required(path + ".statusReplicasPath", ""));
        } else if (!status.startsWith(".status.")) {
            errs.add(FieldError.invalid(path + ".statusReplicasPath", status, "should be a json path under .status"));
        }
        if (!selector.isEmpty() && !selector.startsWith(".spec.") && !selector.startsWith(".status.")) {
            errs.add(FieldError.invalid(
                    path + ".labelSelectorPath", selector, "should be a json path under either .spec or .status"));
        }
    }

    private static void validateColumn(JsonNode c, String path, List<FieldError> errs) {
        if (c.path("name").asString("").isEmpty()) {
            errs.add(FieldError.required(path + ".name", ""));
        }
        String type = c.path("type").asString("");
        if (type.isEmpty()) {
            errs.add(FieldError.required(path + ".type", ""));
        } else if (!COLUMN_TYPES.contains(type)) {
            errs.add(FieldError.notSupported(path + ".type", type, COLUMN_TYPES));
        }
        String format = c.path("format").asString("");
        if (!format.isEmpty() && !COLUMN_FORMATS.contains(format)) {
            errs.add(FieldError.notSupported(path + ".format", format, COLUMN_FORMATS));
        }
        String jsonPath = c.path("jsonPath").asString("");
        if (jsonPath.isEmpty()) {
            errs.add(FieldError.required(path + ".jsonPath", ""));
        } else {
            try {
                ColumnPath.parse(jsonPath);
            } catch (IllegalArgumentException e) {
                errs.add(FieldError.invalid(
                        path + ".jsonPath",
                        jsonPath,
                        "must be a simple json path starting with . (" + e.getMessage() + ")"));
            }
        }
        if (c.path("priority").asInt(0) < 0) {
            errs.add(FieldError.invalid(
                    path + ".priority", c.path("priority").asInt(), "must be greater than or equal to 0"));
        }
    }

    /** {@code status.storedVersions} gets the storage version; a new CRD starts with empty accepted names. */
    private static void maintainStatus(ObjectNode crd, boolean create) {
        String storageVersion =
                CrdSpec.of(crd).storageVersion().map(CrdSpec.Version::name).orElseThrow();
        ObjectNode status;
        if (create) {
            status = crd.putObject("status");
            status.putObject("acceptedNames").put("plural", "").put("kind", "");
        } else {
            status = crd.get("status") instanceof ObjectNode s ? s : crd.putObject("status");
        }
        ArrayNode stored = status.get("storedVersions") instanceof ArrayNode a ? a : status.putArray("storedVersions");
        if (!CrdSpec.strings(stored).contains(storageVersion)) {
            stored.add(storageVersion);
        }
    }
}
