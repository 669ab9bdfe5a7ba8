package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ObjectValidator;
import io.kubeloop.apiserver.internal.registry.Operation;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.schema.Admission;
import io.kubeloop.apiserver.internal.schema.FieldValidationCheck;
import io.kubeloop.apiserver.internal.storage.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link ObjectValidator} of a server with CustomResourceDefinitions, wrapping the validator of the
 * built-in kinds:
 * <ul>
 *   <li>CustomResourceDefinition objects: the wrapped validator first, then {@link CrdValidation}
 *       (defaults, 422 with a cause per problem, storedVersions).</li>
 *   <li>Custom resources ({@link ResourceDefinition#custom()}): the version's structural schema prunes
 *       unknown fields, drops non-nullable nulls, applies defaults and validates (422 with a cause per
 *       field); pruned fields are reported per {@code fieldValidation} — Strict: 400
 *       {@code strict decoding error: unknown field "spec.foo"} on create/update, 422 on patch; Warn: a
 *       {@code Warning: 299} each; Ignore: silence. The object is then stored in the storage version
 *       (converted by the CRD's conversion strategy: {@code apiVersion} rewritten for {@code None}, the
 *       conversion webhook asked for {@code Webhook}). The wrapped validator is not called.</li>
 *   <li>Everything else: the wrapped validator.</li>
 * </ul>
 *
 * <p><b>Thread safety.</b> Thread-safe if the wrapped validator is; CPU-only, as the seam requires.
 */
public final class CustomResourceValidator implements ObjectValidator {

    private final ObjectValidator builtins;
    private final CompiledSchemas schemas;

    /** Wraps {@code builtins}, the validator of every non-custom resource. */
    public CustomResourceValidator(ObjectValidator builtins) {
        this(builtins, new CompiledSchemas(CompiledSchemas.DEFAULT_CAPACITY));
    }

    /**
     * Wraps {@code builtins}, compiling CRD schemas through {@code schemas} (share it with the
     * {@link CustomResourceDefinitions} controller so that what validation compiled is served as is).
     */
    public CustomResourceValidator(ObjectValidator builtins, CompiledSchemas schemas) {
        this.builtins = Objects.requireNonNull(builtins, "builtins");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
    }

    /** True for the customresourcedefinitions resource itself. */
    public static boolean isCrdResource(ResourceDefinition def) {
        return def.group().equals(CustomResourceDefinitions.GROUP)
                && def.plural().equals(CustomResourceDefinitions.PLURAL);
    }

    @Override
    public void validate(
            ResourceDefinition definition,
            ObjectNode object,
            ObjectNode old,
            Operation operation,
            WriteContext context) {
        if (isCrdResource(definition)) {
            builtins.validate(definition, object, old, operation, context);
            CrdValidation.admit(definition, object, old, schemas);
        } else if (definition.custom()) {
            admitCustomResource(definition, object, old, operation, context);
        } else {
            builtins.validate(definition, object, old, operation, context);
        }
    }

    private static void admitCustomResource(
            ResourceDefinition def, ObjectNode object, ObjectNode old, Operation operation, WriteContext context) {
        if (def.schema() != null) {
            Admission admission = def.schema().admit(object);
            FieldValidationCheck.Result result = FieldValidationCheck.check(
                    context.fieldValidation(),
                    new GroupVersionKind(def.group(), def.version(), def.kind()),
                    admission.unknownFields(),
                    List.of());
            if (result.error().isPresent()) {
                String message = result.error().get();
                if (operation == Operation.PATCH) {
                    throw ApiErrors.invalid(
                            def,
                            Metadata.text(object, "name"),
                            List.of(new ApiErrors.FieldError("FieldValueInvalid", "", message)));
                }
                throw ApiErrors.badRequest(message);
            }
            result.warnings().forEach(context::warn);
            List<Status.Cause> causes = new ArrayList<>(admission.causes());
            causes.addAll(ruleCauses(def, object, old, admission.causes()));
            if (!causes.isEmpty()) {
                List<ApiErrors.FieldError> errors =
                        causes.stream().map(CustomResourceValidator::fieldError).toList();
                throw ApiErrors.invalid(def, Metadata.text(object, "name"), errors);
            }
        }
        String storage = def.group() + "/" + def.storageVersion();
        if (!object.path("apiVersion").asString("").equals(storage)) {
            ObjectNode converted = def.conversion().convert(object, storage);
            object.removeAll();
            object.setAll(converted);
        }
    }

    /**
     * The CEL rules' causes; not evaluated when the schema found a value of the wrong type (the rules
     * were type-checked against the schema), which kube-apiserver reports with one cause instead.
     */
    private static List<Status.Cause> ruleCauses(
            ResourceDefinition def, ObjectNode object, ObjectNode old, List<Status.Cause> schemaCauses) {
        if (def.validationRules().isEmpty()) {
            return List.of();
        }
        if (schemaCauses.stream().anyMatch(c -> c.reason().equals("FieldValueTypeInvalid"))) {
            return List.of(new Status.Cause(
                    "FieldValueInvalid",
                    "Invalid value: \"null\": some validation rules were not checked because the object was invalid;"
                            + " correct the existing errors to complete validation",
                    "<nil>"));
        }
        return def.validationRules().validate(object, old);
    }

    private static ApiErrors.FieldError fieldError(Status.Cause c) {
        return new ApiErrors.FieldError(c.reason(), c.field(), c.message());
    }
}
