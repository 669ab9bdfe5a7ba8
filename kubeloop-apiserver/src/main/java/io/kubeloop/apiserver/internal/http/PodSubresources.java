package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.BadRequestException;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.errors.InternalErrorException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.errors.TooManyRequestsException;
import io.kubeloop.apiserver.internal.builtin.DisruptionBudgets;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import io.kubeloop.apiserver.internal.registry.DeleteParams;
import io.kubeloop.apiserver.internal.registry.ObjectRegistry;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.WriteContext;
import io.kubeloop.apiserver.internal.storage.ListQuery;
import io.kubeloop.apiserver.internal.storage.StoredObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Pod subresources that are not the object itself, as kube-apiserver serves them:
 *
 * <ul>
 *   <li>{@code GET pods/log}: the container's log, as text — empty, since simulated containers print
 *       nothing; a Pod with several containers needs {@code container} (kube-apiserver's 400 names the choices),
 *       and a container that has not started is a 400 ({@code is waiting to start});
 *   <li>{@code POST pods/binding}: binds an unbound Pod to the Node of a {@code Binding} (409 when it is bound);
 *   <li>{@code POST pods/eviction}: deletes the Pod with the {@code Eviction}'s delete options unless a
 *       PodDisruptionBudget selecting it would be violated (429 {@code TooManyRequests} with kube-apiserver's
 *       message and a {@code DisruptionBudget} cause); the budget is computed from the Pods the budget selects
 *       at the time of the request.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class PodSubresources {

    /** The subresources this class serves. */
    static final Set<String> NAMES = Set.of("log", "binding", "eviction");

    private PodSubresources() {}

    /** The log of a container of the Pod: empty text; 400 for a missing or unknown container. */
    static byte[] log(
            ObjectRegistry registry, ResourceDefinition pods, String namespace, String name, String container) {
        JsonNode pod = registry.get(pods, namespace, name).object();
        List<String> names = new ArrayList<>();
        pod.path("spec")
                .path("containers")
                .forEach(c -> names.add(c.path("name").asString("")));
        pod.path("spec")
                .path("initContainers")
                .forEach(c -> names.add(c.path("name").asString("")));
        String chosen = container;
        if (chosen == null || chosen.isEmpty()) {
            if (pod.path("spec").path("containers").size() != 1) {
                throw badRequest(
                        "a container name must be specified for pod " + name + ", choose one of: " + goList(names));
            }
            chosen = pod.path("spec").path("containers").path(0).path("name").asString("");
        }
        if (!names.contains(chosen)) {
            throw badRequest("container " + chosen + " is not valid for pod " + name);
        }
        boolean started = false;
        for (String list : List.of("containerStatuses", "initContainerStatuses")) {
            for (JsonNode cs : pod.path("status").path(list)) {
                if (cs.path("name").asString("").equals(chosen)) {
                    started = !cs.path("state").has("waiting")
                            || cs.path("lastState").has("terminated");
                }
            }
        }
        if (!started) {
            throw badRequest(
                    "container \"" + chosen + "\" in pod \"" + name + "\" is waiting to start: ContainerCreating");
        }
        return new byte[0];
    }

    /** Binds the Pod to the Binding's target Node. */
    static Status bind(
            ObjectRegistry registry, ResourceDefinition pods, String namespace, String name, ObjectNode binding) {
        String node = binding.path("target").path("name").asString("");
        if (node.isEmpty()) {
            throw ApiErrors.invalid(pods, name, List.of(ApiErrors.FieldError.required("target.name", "")));
        }
        StoredObject current = registry.get(pods, namespace, name);
        String bound = current.object().path("spec").path("nodeName").asString("");
        if (!bound.isEmpty()) {
            throw new ConflictException(Status.failure(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on pods/binding \"" + name + "\": pod " + name
                            + " is already assigned to node \"" + bound + "\""));
        }
        ObjectNode next = current.object().deepCopy();
        ((ObjectNode) next.path("spec")).put("nodeName", node);
        registry.update(pods, namespace, name, "", next, WriteContext.defaults());
        return success();
    }

    /** Evicts the Pod, unless a disruption budget forbids it. */
    static Status evict(
            ObjectRegistry registry,
            ResourceDefinition pods,
            ResourceDefinition budgets,
            String namespace,
            String name,
            ObjectNode eviction) {
        JsonNode pod = registry.get(pods, namespace, name).object();
        if (budgets != null && DisruptionBudgets.ready(pod)) {
            checkBudgets(registry, pods, budgets, namespace, pod);
        }
        JsonNode options = eviction.path("deleteOptions");
        registry.delete(
                pods,
                namespace,
                name,
                new DeleteParams(
                        text(options, "propagationPolicy"),
                        null,
                        text(options.path("preconditions"), "uid"),
                        text(options.path("preconditions"), "resourceVersion"),
                        options.path("gracePeriodSeconds").isNumber()
                                ? options.path("gracePeriodSeconds").asLong()
                                : null),
                WriteContext.defaults());
        return success();
    }

    private static void checkBudgets(
            ObjectRegistry registry,
            ResourceDefinition pods,
            ResourceDefinition budgets,
            String namespace,
            JsonNode pod) {
        List<JsonNode> matching = new ArrayList<>();
        for (StoredObject b : registry.store()
                .list(ListQuery.all(budgets.storageId(), namespace))
                .items()) {
            if (DisruptionBudgets.selects(b.object(), pod)) {
                matching.add(b.object());
            }
        }
        if (matching.isEmpty()) {
            return;
        }
        if (matching.size() > 1) {
            throw new InternalErrorException(Status.failure(
                    500,
                    "InternalError",
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not"
                            + " support."));
        }
        JsonNode budget = matching.getFirst();
        List<JsonNode> all = new ArrayList<>();
        registry.store()
                .list(ListQuery.all(pods.storageId(), namespace))
                .items()
                .forEach(p -> all.add(p.object()));
        DisruptionBudgets.Budget numbers = DisruptionBudgets.evaluate(budget, all);
        if (numbers.allowed() <= 0) {
            String budgetName = budget.path("metadata").path("name").asString();
            Status status = new Status(
                    "Status",
                    "v1",
                    Map.of(),
                    Status.FAILURE,
                    "Cannot evict pod as it would violate the pod's disruption budget.",
                    "TooManyRequests",
                    new Status.Details(
                            null,
                            null,
                            null,
                            null,
                            List.of(new Status.Cause(
                                    "DisruptionBudget",
                                    "The disruption budget " + budgetName + " needs " + numbers.desired()
                                            + " healthy pods and has " + numbers.healthy() + " currently",
                                    null)),
                            null),
                    429);
            throw new TooManyRequestsException(status, Duration.ZERO);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isString() ? v.asString() : null;
    }

    private static String goList(List<String> names) {
        return "[" + String.join(" ", names) + "]";
    }

    private static BadRequestException badRequest(String message) {
        return new BadRequestException(Status.failure(400, "BadRequest", message));
    }

    private static Status success() {
        return new Status("Status", "v1", Map.of(), Status.SUCCESS, null, null, null, 201);
    }
}
