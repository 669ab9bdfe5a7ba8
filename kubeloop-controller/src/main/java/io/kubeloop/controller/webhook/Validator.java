package io.kubeloop.controller.webhook;

import java.util.List;

/**
 * Checks objects of a type as they are created, updated or deleted (a validating webhook). A method
 * refuses the request by throwing {@link AdmissionDeniedException}; what it returns are warnings shown
 * to the client ({@code kubectl} prints them).
 *
 * @param <T> the object type
 */
public interface Validator<T> {

    /** Checks a new object; the warnings to return. */
    List<String> validateCreate(T object);

    /** Checks a change; the warnings to return. */
    default List<String> validateUpdate(T oldObject, T newObject) {
        return validateCreate(newObject);
    }

    /** Checks a deletion; the warnings to return. */
    default List<String> validateDelete(T object) {
        return List.of();
    }
}
