package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.errors.ApiExceptions;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.patch.FieldSet;
import io.kubeloop.apiserver.internal.patch.JsonPatch;
import io.kubeloop.apiserver.internal.patch.ManagedFields;
import io.kubeloop.apiserver.internal.patch.MergePatch;
import io.kubeloop.apiserver.internal.patch.PatchException;
import io.kubeloop.apiserver.internal.patch.RequestJson;
import io.kubeloop.apiserver.internal.patch.ServerSideApply;
import io.kubeloop.apiserver.internal.patch.StrategicMergePatch;
import io.kubeloop.apiserver.internal.patch.StrategicMergeSchema;
import io.kubeloop.apiserver.internal.patch.StrategicMergeSchemas;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import io.kubeloop.client.PatchType;
import io.kubeloop.time.Ticker;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link PatchApplier} over the {@code io.kubeloop.apiserver.internal.patch} library: JSON patch, merge patch,
 * strategic merge patch with the built-in kinds' merge keys ({@link StrategicMergeSchemas}) and server-side
 * apply with {@code metadata.managedFields}, field managers and conflicts.
 *
 * <p>Errors: a {@link PatchException} becomes the {@link io.kubeloop.api.errors.ApiException} of its
 * {@link PatchException#toStatus() Status} with {@code details.name}, {@code group} and {@code kind} (the plural
 * resource) filled in. Server-side apply also answers as the real server does for a configuration whose
 * {@code apiVersion} differs from the URL's (400) and, for built-in kinds, for a field the kind's schema does not
 * declare (500 {@code failed to create typed patch object (...): .spec.foo: field not declared in schema}; the
 * path is written with {@code .} and {@code [i]}, where the real server writes list items by key).
 *
 * <p>Stateless apart from the clock; thread-safe.
 */
public final class LibraryPatchApplier implements PatchApplier {

    private final Ticker clock;

    /** An applier stamping managedFields times with {@code clock}. */
    public LibraryPatchApplier(Ticker clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** An applier on the system clock. */
    public LibraryPatchApplier() {
        this(Ticker.system());
    }

    /**
     * The strategic-merge / field-set schema of a resource: the built-in kind's, else the generic custom
     * resource one (metadata merge keys, everything else granular objects and atomic lists).
     */
    public static StrategicMergeSchema schemaOf(ResourceDefinition def) {
        if (def.custom()) {
            return StrategicMergeSchemas.customResource();
        }
        return StrategicMergeSchemas.forKind(def.apiVersion(), def.kind())
                .orElse(StrategicMergeSchemas.customResource());
    }

    /** The fields the server resets on a write to {@code subresource} of {@code def}. */
    public static FieldSet resetFields(ResourceDefinition def, String subresource) {
        return ManagedFields.resetFields(subresource, def.hasSubresource("status"));
    }

    @Override
    public ObjectNode apply(
            ResourceDefinition definition,
            ObjectNode current,
            PatchType type,
            byte[] patch,
            String subresource,
            WriteContext context) {
        String name =
                current == null ? "" : current.path("metadata").path("name").asString("");
        try {
            JsonNode result = switch (type) {
                case JSON_PATCH -> JsonPatch.apply(current, patch);
                case MERGE -> MergePatch.apply(current, patch);
                case STRATEGIC_MERGE -> {
                    if (definition.custom()) {
                        throw ApiErrors.unsupportedMediaType("the body of the request was in an unknown format - "
                                + "accepted media types include: application/json-patch+json, "
                                + "application/merge-patch+json, application/apply-patch+yaml");
                    }
                    yield StrategicMergePatch.apply(current, patch, schemaOf(definition));
                }
                case APPLY -> apply(definition, current, patch, subresource, context);
            };
            if (!(result instanceof ObjectNode o)) {
                throw ApiErrors.badRequest("the patch turned the object into a JSON "
                        + result.getNodeType().name().toLowerCase(Locale.ROOT) + "; an object is required");
            }
            return o;
        } catch (PatchException e) {
            throw ApiExceptions.from(withDetails(e.toStatus(), definition, name));
        }
    }

    private ObjectNode apply(
            ResourceDefinition def, ObjectNode current, byte[] patch, String subresource, WriteContext ctx) {
        JsonNode config;
        String tooDeep = RequestJson.depthError(patch);
        if (tooDeep != null) {
            throw ApiErrors.badRequest("error decoding YAML: " + tooDeep);
        }
        try {
            config = RequestJson.read(patch);
        } catch (JacksonException e) {
            throw ApiErrors.badRequest("error decoding YAML: " + e.getOriginalMessage());
        }
        if (!(config instanceof ObjectNode configObject)) {
            throw ApiErrors.badRequest("error decoding YAML: the apply configuration must be an object");
        }
        String version = configObject.path("apiVersion").asString("");
        if (!version.equals(def.apiVersion())) {
            throw ApiErrors.badRequest("Incorrect version specified in apply patch. Specified patch version: " + version
                    + ", expected: " + def.apiVersion());
        }
        if (!def.custom()) {
            rejectUndeclaredFields(def, configObject, current);
        }
        return (ObjectNode) ServerSideApply.apply(
                        current,
                        configObject,
                        ctx.fieldManager(),
                        ctx.force(),
                        def.apiVersion(),
                        subresource,
                        clock.instant(),
                        schemaOf(def),
                        resetFields(def, subresource))
                .object();
    }

    /** The typed-conversion failure of the real server's field manager for fields the built-in kind lacks. */
    private static void rejectUndeclaredFields(ResourceDefinition def, ObjectNode config, ObjectNode current) {
        GroupVersionKind gvk = new GroupVersionKind(def.group(), def.version(), def.kind());
        Optional<StructuralSchema> schema = BuiltinSchemas.forKind(gvk);
        if (schema.isEmpty()) {
            return;
        }
        List<String> unknown = schema.get().prune(config.deepCopy());
        if (unknown.isEmpty()) {
            return;
        }
        String name = config.path("metadata").path("name").asString("");
        if (name.isEmpty() && current != null) {
            name = current.path("metadata").path("name").asString("");
        }
        String ns = config.path("metadata").path("namespace").asString("");
        String gvkText = def.apiVersion().contains("/") ? def.apiVersion() : "/" + def.apiVersion();
        String errors = unknown.size() == 1
                ? "." + unknown.getFirst() + ": field not declared in schema"
                : "errors:\n"
                        + String.join(
                                "\n",
                                unknown.stream()
                                        .map(u -> "  ." + u + ": field not declared in schema")
                                        .toList());
        throw ApiExceptions.from(new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                "failed to create typed patch object (" + ns + "/" + name + "; " + gvkText + ", Kind=" + def.kind()
                        + "): " + errors,
                null,
                null,
                500));
    }

    private static Status withDetails(Status s, ResourceDefinition def, String name) {
        Status.Details d = s.details();
        String kind = "Invalid".equals(s.reason()) ? def.kind() : def.plural();
        Status.Details details = new Status.Details(
                name, def.group(), kind, null, d == null ? null : d.causes(), d == null ? null : d.retryAfterSeconds());
        return new Status(
                s.kind(), s.apiVersion(), s.metadata(), s.status(), s.message(), s.reason(), details, s.code());
    }
}
