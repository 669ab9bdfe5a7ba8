package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ApiErrors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The create-only review resources, answered from the request and the server's RBAC objects, never stored:
 * {@code SelfSubjectAccessReview} (may I…? — {@code kubectl auth can-i}), {@code SubjectAccessReview} and
 * {@code LocalSubjectAccessReview} (may this user…?), {@code SelfSubjectRulesReview} (what may I do in this
 * namespace? — {@code kubectl auth can-i --list}), {@code SelfSubjectReview} (who am I? —
 * {@code kubectl auth whoami}) and {@code TokenReview} (whose token is this?). Each answer is the request
 * with its {@code status} filled in.
 *
 * <p>Thread-safe (stateless over thread-safe collaborators).
 */
public final class AccessReviews {

    private final RbacAuthorizer authorizer;
    private final Authentication authentication;
    private final List<String> audiences;

    public AccessReviews(RbacAuthorizer authorizer, Authentication authentication, List<String> audiences) {
        this.authorizer = authorizer;
        this.authentication = authentication;
        this.audiences = List.copyOf(audiences);
    }

    /** True when {@code group/plural} is a review resource this class answers. */
    public static boolean isReview(String group, String plural) {
        return switch (group) {
            case "authorization.k8s.io" ->
                List.of(
                                "selfsubjectaccessreviews",
                                "subjectaccessreviews",
                                "localsubjectaccessreviews",
                                "selfsubjectrulesreviews")
                        .contains(plural);
            case "authentication.k8s.io" -> plural.equals("selfsubjectreviews") || plural.equals("tokenreviews");
            default -> false;
        };
    }

    /**
     * Answers a review.
     *
     * @param plural the review resource
     * @param urlNamespace the namespace of the URL (LocalSubjectAccessReview), or null
     * @param body the request body
     * @param user who asks
     * @throws io.kubeloop.api.errors.InvalidException for a malformed review
     */
    public ObjectNode answer(String plural, String urlNamespace, ObjectNode body, UserInfo user) {
        ObjectNode out = body.deepCopy();
        String group = plural.endsWith("accessreviews") || plural.equals("selfsubjectrulesreviews")
                ? "authorization.k8s.io"
                : "authentication.k8s.io";
        out.put("apiVersion", group + "/v1");
        out.put("kind", kind(plural));
        ObjectNode meta = out.has("metadata") && out.get("metadata").isObject()
                ? (ObjectNode) out.get("metadata")
                : out.putObject("metadata");
        meta.putNull("creationTimestamp");
        ObjectNode spec =
                out.has("spec") && out.get("spec").isObject() ? (ObjectNode) out.get("spec") : out.putObject("spec");
        switch (plural) {
            case "selfsubjectaccessreviews" -> out.set("status", access(spec, user, plural));
            case "subjectaccessreviews" -> out.set("status", access(spec, subject(spec, plural), plural));
            case "localsubjectaccessreviews" -> {
                String ns = spec.path("resourceAttributes").path("namespace").asString("");
                if (!ns.equals(urlNamespace)) {
                    throw invalid(plural, "spec.resourceAttributes.namespace", ns, "must match metadata.namespace");
                }
                out.set("status", access(spec, subject(spec, plural), plural));
            }
            case "selfsubjectrulesreviews" -> out.set("status", rules(spec, user));
            case "selfsubjectreviews" -> out.putObject("status").set("userInfo", userInfo(user));
            case "tokenreviews" -> out.set("status", token(spec));
            default -> throw new IllegalArgumentException("not a review: " + plural);
        }
        return out;
    }

    private ObjectNode access(ObjectNode spec, UserInfo user, String plural) {
        JsonNode res = spec.path("resourceAttributes");
        JsonNode non = spec.path("nonResourceAttributes");
        if (res.isObject() == non.isObject()) {
            throw invalid(
                    plural,
                    "spec.resourceAttributes",
                    null,
                    "exactly one of nonResourceAttributes or resourceAttributes must be specified");
        }
        RequestAttributes a = res.isObject()
                ? new RequestAttributes(
                        user,
                        res.path("verb").asString(""),
                        true,
                        "",
                        res.path("group").asString(""),
                        res.path("version").asString(""),
                        res.path("resource").asString(""),
                        res.path("subresource").asString(""),
                        res.path("namespace").asString(""),
                        res.path("name").asString(""))
                : RequestAttributes.nonResource(
                        user, non.path("verb").asString(""), non.path("path").asString(""));
        Decision d = authorizer.authorize(a);
        ObjectNode status = KubeJson.mapper().createObjectNode();
        status.put("allowed", d.allowed());
        if (!d.reason().isEmpty()) {
            status.put("reason", d.reason());
        }
        return status;
    }

    private static UserInfo subject(ObjectNode spec, String plural) {
        String name = spec.path("user").asString("");
        List<String> groups = PolicyRule.strings(spec.path("groups"));
        if (name.isEmpty() && groups.isEmpty()) {
            throw invalid(plural, "spec.user", "", "at least one of user or group must be specified");
        }
        Map<String, List<String>> extra = new LinkedHashMap<>();
        spec.path("extra").properties().forEach(e -> extra.put(e.getKey(), PolicyRule.strings(e.getValue())));
        return new UserInfo(name, spec.path("uid").asString(""), groups, extra);
    }

    private ObjectNode rules(ObjectNode spec, UserInfo user) {
        String namespace = spec.path("namespace").asString("");
        RbacAuthorizer.Rules rules = user.inGroup(UserInfo.MASTERS)
                ? new RbacAuthorizer.Rules(
                        List.of(
                                PolicyRule.resources(List.of("*"), List.of("*"), List.of("*")),
                                PolicyRule.urls(List.of("*"), List.of("*"))),
                        List.of())
                : authorizer.rulesFor(user, namespace);
        ObjectNode status = KubeJson.mapper().createObjectNode();
        ArrayNode resourceRules = status.putArray("resourceRules");
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (PolicyRule r : rules.rules()) {
            if (!r.nonResourceURLs().isEmpty()) {
                ObjectNode n = nonResourceRules.addObject();
                strings(n.putArray("verbs"), r.verbs());
                strings(n.putArray("nonResourceURLs"), r.nonResourceURLs());
            }
            if (!r.resources().isEmpty()) {
                ObjectNode n = resourceRules.addObject();
                strings(n.putArray("verbs"), r.verbs());
                strings(n.putArray("apiGroups"), r.apiGroups());
                strings(n.putArray("resources"), r.resources());
                if (!r.resourceNames().isEmpty()) {
                    strings(n.putArray("resourceNames"), r.resourceNames());
                }
            }
        }
        status.put("incomplete", !rules.errors().isEmpty());
        if (!rules.errors().isEmpty()) {
            status.put("evaluationError", RbacAuthorizer.aggregate(rules.errors()));
        }
        return status;
    }

    private ObjectNode token(ObjectNode spec) {
        ObjectNode status = KubeJson.mapper().createObjectNode();
        Optional<UserInfo> user =
                authentication.authenticateToken(spec.path("token").asString(""));
        if (user.isEmpty()) {
            status.put("error", "token is not valid");
            return status;
        }
        status.put("authenticated", true);
        status.set("user", userInfo(user.get()));
        strings(status.putArray("audiences"), audiences);
        return status;
    }

    private static ObjectNode userInfo(UserInfo user) {
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("username", user.name());
        if (!user.uid().isEmpty()) {
            n.put("uid", user.uid());
        }
        strings(n.putArray("groups"), user.groups());
        if (!user.extra().isEmpty()) {
            ObjectNode extra = n.putObject("extra");
            user.extra().forEach((k, v) -> strings(extra.putArray(k), v));
        }
        return n;
    }

    private static void strings(ArrayNode a, List<String> values) {
        values.forEach(a::add);
    }

    private static String kind(String plural) {
        return switch (plural) {
            case "selfsubjectaccessreviews" -> "SelfSubjectAccessReview";
            case "subjectaccessreviews" -> "SubjectAccessReview";
            case "localsubjectaccessreviews" -> "LocalSubjectAccessReview";
            case "selfsubjectrulesreviews" -> "SelfSubjectRulesReview";
            case "selfsubjectreviews" -> "SelfSubjectReview";
            default -> "TokenReview";
        };
    }

    private static InvalidException invalid(String plural, String field, Object value, String detail) {
        String group = plural.equals("tokenreviews") || plural.equals("selfsubjectreviews")
                ? "authentication.k8s.io"
                : "authorization.k8s.io";
        return ApiErrors.invalid(
                kind(plural) + "." + group,
                group,
                kind(plural),
                "",
                new ArrayList<>(List.of(ApiErrors.FieldError.invalid(field, value, detail))));
    }
}
