package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.BadRequestException;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.errors.MethodNotAllowedException;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.errors.UnsupportedMediaTypeException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Status errors of the resource layer, worded as apimachinery's {@code errors.go} words them
 *: {@code details.kind} is the plural resource for NotFound/AlreadyExists/Conflict and the
 * Kind for Invalid.
 *
 * <p>Stateless and thread-safe.
 */
public final class ApiErrors {

    private ApiErrors() {}

    private static Status status(
            int code,
            String reason,
            String message,
            String name,
            String group,
            String kind,
            List<Status.Cause> causes) {
        return new Status(
                "Status",
                "v1",
                Map.of(),
                Status.FAILURE,
                message,
                reason,
                new Status.Details(name, group, kind, null, causes == null || causes.isEmpty() ? null : causes, null),
                code);
    }

    /** 404 {@code <res>[.<g>] "<n>" not found}. */
    public static NotFoundException notFound(String group, String plural, String name) {
        String res = group.isEmpty() ? plural : plural + "." + group;
        return new NotFoundException(
                status(404, "NotFound", res + " \"" + name + "\" not found", name, group, plural, null));
    }

    /** 404 for an object of {@code def}. */
    public static NotFoundException notFound(ResourceDefinition def, String name) {
        return notFound(def.group(), def.plural(), name);
    }

    /** 409 AlreadyExists. */
    public static AlreadyExistsException alreadyExists(ResourceDefinition def, String name) {
        return new AlreadyExistsException(status(
                409,
                "AlreadyExists",
                def.qualifiedResource() + " \"" + name + "\" already exists",
                name,
                def.group(),
                def.plural(),
                null));
    }

    /** 409 Conflict: {@code Operation cannot be fulfilled on <res> "<n>": <why>}. */
    public static ConflictException conflict(ResourceDefinition def, String name, String why) {
        return new ConflictException(status(
                409,
                "Conflict",
                "Operation cannot be fulfilled on " + def.qualifiedResource() + " \"" + name + "\": " + why,
                name,
                def.group(),
                def.plural(),
                null));
    }

    /** The optimistic-concurrency conflict message. */
    public static final String MODIFIED =
            "the object has been modified; please apply your changes to the latest " + "version and try again";

    /** One field problem for {@link #invalid}. */
    public record FieldError(String reason, String field, String message) {

        /** {@code field: Invalid value: <value>: detail}. */
        public static FieldError invalid(String field, Object value, String detail) {
            return new FieldError("FieldValueInvalid", field, "Invalid value: " + quote(value) + ": " + detail);
        }

        /** {@code field: Required value: detail} ({@code field: Required value} without a detail). */
        public static FieldError required(String field, String detail) {
            return new FieldError(
                    "FieldValueRequired", field, detail.isEmpty() ? "Required value" : "Required value: " + detail);
        }

        /** {@code field: Forbidden: detail}. */
        public static FieldError forbidden(String field, String detail) {
            return new FieldError("FieldValueForbidden", field, "Forbidden: " + detail);
        }

        /** {@code field: Unsupported value: <value>: supported values: ...}. */
        public static FieldError notSupported(String field, Object value, List<String> supported) {
            return new FieldError(
                    "FieldValueNotSupported",
                    field,
                    "Unsupported value: " + quote(value) + ": supported values: "
                            + supported.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(", ")));
        }

        private static String quote(Object v) {
            return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
        }
    }

    /** 422 {@code <Kind>[.<g>] "<n>" is invalid: <field>: <message>[, ...]} with one cause per problem. */
    public static InvalidException invalid(
            String qualifiedKind, String group, String kind, String name, List<FieldError> errors) {
        String joined = errors.size() == 1
                ? errors.getFirst().field() + ": " + errors.getFirst().message()
                : "[" + errors.stream().map(e -> e.field() + ": " + e.message()).collect(Collectors.joining(", "))
                        + "]";
        List<Status.Cause> causes = errors.stream()
                .map(e -> new Status.Cause(e.reason(), e.message(), e.field()))
                .toList();
        return new InvalidException(status(
                422, "Invalid", qualifiedKind + " \"" + name + "\" is invalid: " + joined, name, group, kind, causes));
    }

    /** 422 for an object of {@code def}. */
    public static InvalidException invalid(ResourceDefinition def, String name, List<FieldError> errors) {
        return invalid(def.qualifiedKind(), def.group(), def.kind(), name, errors);
    }

    /** 422 for list/watch options ({@code ListOptions.meta.k8s.io ""}). */
    public static InvalidException invalidOptions(String kind, FieldError error) {
        return invalid(kind + ".meta.k8s.io", "meta.k8s.io", kind, "", List.of(error));
    }

    /** 400 BadRequest with free text. */
    public static BadRequestException badRequest(String message) {
        return new BadRequestException(Status.failure(400, "BadRequest", message));
    }

    /** 403 for creates in a terminating namespace. */
    public static ForbiddenException namespaceTerminating(ResourceDefinition def, String name, String namespace) {
        String why = "unable to create new content in namespace " + namespace + " because it is being terminated";
        return new ForbiddenException(status(
                403,
                "Forbidden",
                def.qualifiedResource() + " \"" + name + "\" is forbidden: " + why,
                name,
                def.group(),
                def.plural(),
                List.of(new Status.Cause("NamespaceTerminating", why, "metadata.namespace"))));
    }

    /** 403 Forbidden with a message about an object. */
    public static ForbiddenException forbidden(ResourceDefinition def, String name, String why) {
        return new ForbiddenException(status(
                403,
                "Forbidden",
                def.qualifiedResource() + " \"" + name + "\" is forbidden: " + why,
                name,
                def.group(),
                def.plural(),
                null));
    }

    /** 405 {@code <verb> is not supported on resources of kind "<res>"}. */
    public static MethodNotAllowedException methodNotAllowed(String verb, String resource) {
        return new MethodNotAllowedException(Status.failure(
                405, "MethodNotAllowed", verb + " is not supported on resources of kind \"" + resource + "\""));
    }

    /** 415 UnsupportedMediaType. */
    public static UnsupportedMediaTypeException unsupportedMediaType(String message) {
        return new UnsupportedMediaTypeException(Status.failure(415, "UnsupportedMediaType", message));
    }
}
