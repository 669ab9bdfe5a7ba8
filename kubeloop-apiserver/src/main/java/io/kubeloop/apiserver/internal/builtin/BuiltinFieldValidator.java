package io.kubeloop.apiserver.internal.builtin;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.ObjectValidator;
import io.kubeloop.apiserver.internal.registry.Operation;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.FieldValidationCheck;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import io.kubeloop.client.FieldValidation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link ObjectValidator} for built-in kinds: unknown fields (found by pruning against
 * {@link BuiltinSchemas}) and duplicate fields ({@link WriteContext#duplicateFields()}) handled per
 * {@code fieldValidation} as the real server does:
 * <ul>
 *   <li>Strict: create and update answer 400 {@code <Kind> in version "v1" cannot be handled as a <Kind>:
 *       strict decoding error: unknown field "spec.foo"}; a patch answers 422 {@code  "" is invalid: patch:
 *       Invalid value: "<patched object>": strict decoding error: unknown field "spec.foo"};</li>
 *   <li>Warn (the default): the write succeeds with a {@code Warning: 299 - "unknown field \"spec.foo\""} per
 *       field;</li>
 *   <li>Ignore: silent.</li>
 * </ul>
 * Unknown fields are dropped in every mode; then kube-apiserver's defaults of the workload kinds are applied
 * ({@link BuiltinDefaults}), and the workload checks users meet most ({@link WorkloadValidation}). The built-in
 * schemas carry no bounds or enums, so nothing else is validated. Custom resources go to the {@code custom} validator given at construction (the CRD layer's).
 *
 * <p>The schemas are {@link BuiltinSchemas#standard() built once per JVM} (a one-time cost of up to seconds),
 * on first use: the server builds them while it starts, so no request pays it.
 *
 * <p>Immutable and thread-safe.
 */
public final class BuiltinFieldValidator implements ObjectValidator {

    private final ObjectValidator custom;

    /**
     * A validator for built-ins that hands custom resources to {@code custom}.
     *
     * @param custom what validates custom resources ({@link ObjectValidator#acceptAll()} when none)
     */
    public BuiltinFieldValidator(ObjectValidator custom) {
        this.custom = Objects.requireNonNull(custom, "custom");
    }

    /** A validator for built-ins that accepts custom resources unchanged. */
    public BuiltinFieldValidator() {
        this(ObjectValidator.acceptAll());
    }

    /** The built-in schemas (built on first use). */
    public BuiltinSchemas schemas() {
        return BuiltinSchemas.standard();
    }

    @Override
    public void validate(
            ResourceDefinition definition,
            ObjectNode object,
            ObjectNode old,
            Operation operation,
            WriteContext context) {
        if (definition.custom()) {
            custom.validate(definition, object, old, operation, context);
            return;
        }
        GroupVersionKind gvk = new GroupVersionKind(definition.group(), definition.version(), definition.kind());
        StructuralSchema schema = BuiltinSchemas.forKind(gvk).orElse(null);
        if (schema == null) {
            BuiltinDefaults.apply(definition, object);
            WorkloadValidation.validate(definition, object, old);
            return;
        }
        FieldValidation mode = context.fieldValidation();
        String before = mode == FieldValidation.STRICT && operation == Operation.PATCH
                ? new String(KubeJson.mapper().writeValueAsBytes(object), StandardCharsets.UTF_8)
                : null;
        List<String> unknown = schema.prune(object);
        FieldValidationCheck.Result result = FieldValidationCheck.check(mode, gvk, unknown, context.duplicateFields());
        result.warnings().forEach(context::warn);
        if (result.error().isEmpty()) {
            BuiltinDefaults.apply(definition, object);
            WorkloadValidation.validate(definition, object, old);
            return;
        }
        String error = result.error().get();
        if (operation != Operation.PATCH) {
            throw ApiErrors.badRequest(error);
        }
        String strict = error.substring(error.indexOf("strict decoding error: "));
        String message = "Invalid value: " + goQuote(before) + ": " + strict;
        throw new InvalidException(new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                " \"\" is invalid: patch: " + message,
                "Invalid",
                new Status.Details(
                        null, null, null, null, List.of(new Status.Cause("FieldValueInvalid", message, "patch")), null),
                422));
    }

    /** Go's {@code %q} of a string, as field errors print invalid values. */
    private static String goQuote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
