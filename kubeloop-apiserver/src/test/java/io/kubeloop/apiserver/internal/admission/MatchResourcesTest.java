package io.kubeloop.apiserver.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.auth.UserInfo;
import io.kubeloop.apiserver.internal.registry.NameRule;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The matching rules of the admissionregistration API — a ValidatingAdmissionPolicy's
 * {@code matchConstraints}, a binding's {@code matchResources}, a webhook's rules and selectors — as
 * kube-apiserver applies them, one row per case: which requests match, and in which version of the
 * resource (under {@code matchPolicy: Equivalent}, another served version a rule names).
 */
class MatchResourcesTest {

    private static final ResourceRegistry BUILTINS = new ResourceRegistry();
    private static final ResourceDefinition CONFIGMAPS =
            BUILTINS.find("", "v1", "configmaps").orElseThrow();
    private static final ResourceDefinition NAMESPACES =
            BUILTINS.find("", "v1", "namespaces").orElseThrow();
    private static final ResourceDefinition NODES =
            BUILTINS.find("", "v1", "nodes").orElseThrow();
    private static final ResourceDefinition DEPLOYMENTS =
            BUILTINS.find("apps", "v1", "deployments").orElseThrow();

    /** A custom resource served in v1 and v1beta1, both with status. */
    private static final ResourceDefinition WIDGETS_V1 = custom("widgets", "Widget", "v1", Set.of("status"));

    private static final ResourceDefinition WIDGETS_V1BETA1 = custom("widgets", "Widget", "v1beta1", Set.of("status"));
    /** A custom resource served in v1 with status and in v2 without. */
    private static final ResourceDefinition GADGETS_V1 = custom("gadgets", "Gadget", "v1", Set.of("status"));

    private static final ResourceDefinition GADGETS_V2 = custom("gadgets", "Gadget", "v2", Set.of());

    /** Namespace {@code labelled} has {@code team: a}; {@code plain} has no label. */
    private static final MatchResources.Cluster CLUSTER = MatchResources.Cluster.of(
            name -> Optional.ofNullable(Map.of("labelled", Map.of("team", "a"), "plain", Map.<String, String>of())
                    .get(name)),
            () -> {
                List<ResourceDefinition> all = new ArrayList<>(BUILTINS.all());
                all.addAll(List.of(WIDGETS_V1, WIDGETS_V1BETA1, GADGETS_V1, GADGETS_V2));
                return all;
            });

    private static ResourceDefinition custom(String plural, String kind, String version, Set<String> subresources) {
        return new ResourceDefinition(
                "example.com",
                version,
                plural,
                kind,
                null,
                null,
                List.of(),
                List.of(),
                true,
                ResourceDefinition.ALL_VERBS,
                subresources,
                NameRule.SUBDOMAIN,
                true,
                true,
                false,
                Set.of(),
                List.of(),
                "v1",
                null);
    }

    /** Where a row's match object comes from. */
    enum Source {
        /** A policy's {@code matchConstraints} or a binding's {@code matchResources}. */
        POLICY,
        /** A webhook of a webhook configuration. */
        WEBHOOK
    }

    /**
     * One case: the match object (JSON, {@code '} for {@code "}), the request, and the version it matches in
     * ({@code null}: no match).
     */
    record Case(String name, Source source, String match, AdmissionRequest request, String version) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String ALL_RULES =
            "'resourceRules':[{'apiGroups':['*'],'apiVersions':['*'],'operations':['*'],'resources':['*/*']}]";
    private static final String TEAM_A = "'namespaceSelector':{'matchLabels':{'team':'a'}}";

    /** A request; labels as JSON or null for no object (the new object on delete, the old one on create). */
    private static AdmissionRequest request(
            ResourceDefinition def, String op, String namespace, String name, String sub, String labels, String old) {
        return new AdmissionRequest(
                def, op, namespace, name, sub, object(name, labels), object(name, old), UserInfo.anonymous(), false);
    }

    private static AdmissionRequest create(ResourceDefinition def, String namespace, String labels) {
        return request(def, "CREATE", namespace, "x", "", labels, null);
    }

    private static ObjectNode object(String name, String labels) {
        return labels == null
                ? null
                : (ObjectNode) json("{'metadata':{'name':'" + name + "','labels':" + labels + "}}");
    }

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text.replace('\'', '"'));
    }

    private static String rules(String groups, String versions, String ops, String resources, String extra) {
        return "'resourceRules':[{'apiGroups':[" + groups + "],'apiVersions':[" + versions + "],'operations':[" + ops
                + "],'resources':[" + resources + "]" + extra + "}]";
    }

    private static String webhookRules(String groups, String versions, String resources) {
        return "'rules':[{'apiGroups':[" + groups + "],'apiVersions':[" + versions
                + "],'operations':['*'],'resources':[" + resources + "]}]";
    }

    static Stream<Case> cases() {
        List<Case> c = new ArrayList<>();
        // a binding scoped by namespace alone: every request the policy matches, in the selected namespaces
        c.add(new Case(
                "namespace selector, no rules: object in a selected namespace",
                Source.POLICY,
                "{" + TEAM_A + "}",
                create(CONFIGMAPS, "labelled", "{}"),
                "v1"));
        c.add(new Case(
                "namespace selector, no rules: object in another namespace",
                Source.POLICY,
                "{" + TEAM_A + "}",
                create(CONFIGMAPS, "plain", "{}"),
                null));
        c.add(new Case(
                "namespace selector, no rules: custom resource in a selected namespace",
                Source.POLICY,
                "{" + TEAM_A + ",'matchPolicy':'Equivalent','objectSelector':{}}",
                create(WIDGETS_V1BETA1, "labelled", "{}"),
                "v1beta1"));
        c.add(new Case(
                "namespace selector: a cluster-scoped object is never filtered out",
                Source.POLICY,
                "{" + TEAM_A + "}",
                create(NODES, null, "{}"),
                "v1"));
        c.add(new Case(
                "namespace selector: a Namespace created with the labels matches by its own",
                Source.POLICY,
                "{" + TEAM_A + "}",
                request(NAMESPACES, "CREATE", null, "new", "", "{'team':'a'}", null),
                "v1"));
        c.add(new Case(
                "namespace selector: a Namespace created without them does not",
                Source.POLICY,
                "{" + TEAM_A + "}",
                request(NAMESPACES, "CREATE", null, "labelled", "", "{}", null),
                null));
        c.add(new Case(
                "namespace selector: a Namespace updated to the labels matches by the new ones",
                Source.POLICY,
                "{" + TEAM_A + "}",
                request(NAMESPACES, "UPDATE", null, "plain", "", "{'team':'a'}", "{}"),
                "v1"));
        c.add(new Case(
                "namespace selector: a Namespace updated away from the labels does not match",
                Source.POLICY,
                "{" + TEAM_A + "}",
                request(NAMESPACES, "UPDATE", null, "labelled", "", "{}", "{'team':'a'}"),
                null));
        c.add(new Case(
                "namespace selector: a Namespace deleted matches by its stored labels",
                Source.POLICY,
                "{" + TEAM_A + "}",
                request(NAMESPACES, "DELETE", null, "labelled", "", null, "{'team':'a'}"),
                "v1"));
        c.add(new Case(
                "namespace selector: a Namespace's status matches by its stored labels, not the new ones",
                Source.POLICY,
                "{" + TEAM_A + "," + rules("''", "'v1'", "'*'", "'namespaces/status'", "") + "}",
                request(NAMESPACES, "UPDATE", null, "plain", "status", "{'team':'a'}", "{}"),
                null));
        c.add(new Case(
                "namespace selector: DoesNotExist matches a namespace without the label",
                Source.POLICY,
                "{'namespaceSelector':{'matchExpressions':[{'key':'team','operator':'DoesNotExist'}]}}",
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        c.add(new Case(
                "namespace selector: the empty selector matches every namespace",
                Source.POLICY,
                "{'namespaceSelector':{}," + ALL_RULES + "}",
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        // object selector: the new object or the old one
        c.add(new Case(
                "object selector: a created object with the labels",
                Source.POLICY,
                "{'objectSelector':{'matchLabels':{'tier':'web'}}," + ALL_RULES + "}",
                create(CONFIGMAPS, "plain", "{'tier':'web'}"),
                "v1"));
        c.add(new Case(
                "object selector: an update whose old object has the labels",
                Source.POLICY,
                "{'objectSelector':{'matchLabels':{'tier':'web'}}," + ALL_RULES + "}",
                request(CONFIGMAPS, "UPDATE", "plain", "x", "", "{}", "{'tier':'web'}"),
                "v1"));
        c.add(new Case(
                "object selector: an update where neither has them",
                Source.POLICY,
                "{'objectSelector':{'matchLabels':{'tier':'web'}}," + ALL_RULES + "}",
                request(CONFIGMAPS, "UPDATE", "plain", "x", "", "{'tier':'db'}", "{}"),
                null));
        c.add(new Case(
                "object selector: a delete matches by the old object",
                Source.POLICY,
                "{'objectSelector':{'matchLabels':{'tier':'web'}}," + ALL_RULES + "}",
                request(CONFIGMAPS, "DELETE", "plain", "x", "", null, "{'tier':'web'}"),
                "v1"));
        c.add(new Case(
                "object selector: In over the labels",
                Source.POLICY,
                "{'objectSelector':{'matchExpressions':[{'key':'tier','operator':'In','values':['web']}]}," + ALL_RULES
                        + "}",
                create(CONFIGMAPS, "plain", "{'tier':'web'}"),
                "v1"));
        c.add(new Case(
                "object selector: DoesNotExist matches an object without labels",
                Source.POLICY,
                "{'objectSelector':{'matchExpressions':[{'key':'tier','operator':'DoesNotExist'}]}," + ALL_RULES + "}",
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        // resource rules with names, and exclusions
        c.add(new Case(
                "resourceNames: the named object",
                Source.POLICY,
                "{" + rules("''", "'v1'", "'*'", "'configmaps'", ",'resourceNames':['x']") + "}",
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        c.add(new Case(
                "resourceNames: another name",
                Source.POLICY,
                "{" + rules("''", "'v1'", "'*'", "'configmaps'", ",'resourceNames':['y']") + "}",
                create(CONFIGMAPS, "plain", "{}"),
                null));
        c.add(new Case(
                "resourceNames: a name still to be generated matches no list",
                Source.POLICY,
                "{" + rules("''", "'v1'", "'*'", "'configmaps'", ",'resourceNames':['x']") + "}",
                request(CONFIGMAPS, "CREATE", "plain", "", "", "{}", null),
                null));
        c.add(new Case(
                "excludeResourceRules: the excluded name",
                Source.POLICY,
                "{" + ALL_RULES + ",'excludeResourceRules':[{'apiGroups':[''],'apiVersions':['*'],'operations':['*'],"
                        + "'resources':['configmaps'],'resourceNames':['x']}]}",
                create(CONFIGMAPS, "plain", "{}"),
                null));
        c.add(new Case(
                "excludeResourceRules: another name",
                Source.POLICY,
                "{" + ALL_RULES + ",'excludeResourceRules':[{'apiGroups':[''],'apiVersions':['*'],'operations':['*'],"
                        + "'resources':['configmaps'],'resourceNames':['y']}]}",
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        c.add(new Case(
                "excludeResourceRules alone: everything else",
                Source.POLICY,
                "{'excludeResourceRules':[{'apiGroups':[''],'apiVersions':['*'],'operations':['*'],"
                        + "'resources':['secrets']}]}",
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        // resources and subresources
        String deployments = "{" + rules("'apps'", "'v1'", "'*'", "%s", "") + "}";
        AdmissionRequest main = request(DEPLOYMENTS, "UPDATE", "plain", "x", "", "{}", "{}");
        AdmissionRequest scale = request(DEPLOYMENTS, "UPDATE", "plain", "x", "scale", "{}", "{}");
        c.add(new Case("resources: deployments", Source.POLICY, deployments.formatted("'deployments'"), main, "v1"));
        c.add(new Case(
                "resources: deployments is not its scale",
                Source.POLICY,
                deployments.formatted("'deployments'"),
                scale,
                null));
        c.add(new Case(
                "resources: deployments/scale",
                Source.POLICY,
                deployments.formatted("'deployments/scale'"),
                scale,
                "v1"));
        c.add(new Case(
                "resources: deployments/*", Source.POLICY, deployments.formatted("'deployments/*'"), scale, "v1"));
        c.add(new Case("resources: */scale", Source.POLICY, deployments.formatted("'*/scale'"), scale, "v1"));
        c.add(new Case("resources: * is no subresource", Source.POLICY, deployments.formatted("'*'"), scale, null));
        c.add(new Case("resources: */*", Source.POLICY, deployments.formatted("'*/*'"), scale, "v1"));
        // operations, groups and scope
        c.add(new Case(
                "operations: another operation",
                Source.POLICY,
                "{" + rules("'*'", "'*'", "'UPDATE'", "'*'", "") + "}",
                create(CONFIGMAPS, "plain", "{}"),
                null));
        c.add(new Case(
                "apiGroups: the core group is ''",
                Source.POLICY,
                "{" + rules("''", "'*'", "'CREATE'", "'*'", "") + "}",
                create(DEPLOYMENTS, "plain", "{}"),
                null));
        String scoped = "{" + rules("'*'", "'*'", "'*'", "'*'", ",'scope':'%s'") + "}";
        c.add(new Case(
                "scope Namespaced: an object in a namespace",
                Source.POLICY,
                scoped.formatted("Namespaced"),
                create(CONFIGMAPS, "plain", "{}"),
                "v1"));
        c.add(new Case(
                "scope Namespaced: not a Namespace",
                Source.POLICY,
                scoped.formatted("Namespaced"),
                request(NAMESPACES, "CREATE", null, "n", "", "{}", null),
                null));
        c.add(new Case(
                "scope Cluster: a Namespace",
                Source.POLICY,
                scoped.formatted("Cluster"),
                request(NAMESPACES, "CREATE", null, "n", "", "{}", null),
                "v1"));
        c.add(new Case(
                "scope Cluster: a Node", Source.POLICY, scoped.formatted("Cluster"), create(NODES, null, "{}"), "v1"));
        c.add(new Case(
                "scope Cluster: not an object in a namespace",
                Source.POLICY,
                scoped.formatted("Cluster"),
                create(CONFIGMAPS, "plain", "{}"),
                null));
        c.add(new Case("scope *: a Node", Source.POLICY, scoped.formatted("*"), create(NODES, null, "{}"), "v1"));
        // matchPolicy: Exact, or Equivalent (another served version of the resource)
        String widgetsV1 = "{'matchPolicy':'%s'," + rules("'example.com'", "%s", "'*'", "'widgets'", "") + "}";
        AdmissionRequest beta = create(WIDGETS_V1BETA1, "plain", "{}");
        c.add(new Case(
                "Equivalent: a rule for v1 matches a v1beta1 request, in v1",
                Source.POLICY,
                widgetsV1.formatted("Equivalent", "'v1'"),
                beta,
                "v1"));
        c.add(new Case(
                "Exact: a rule for v1 does not match a v1beta1 request",
                Source.POLICY,
                widgetsV1.formatted("Exact", "'v1'"),
                beta,
                null));
        c.add(new Case(
                "Equivalent: a rule for a version that is not served matches nothing",
                Source.POLICY,
                widgetsV1.formatted("Equivalent", "'v9'"),
                beta,
                null));
        c.add(new Case(
                "Equivalent: a rule naming the request's own version keeps it",
                Source.POLICY,
                widgetsV1.formatted("Equivalent", "'v1', 'v1beta1'"),
                beta,
                "v1beta1"));
        c.add(new Case(
                "Equivalent: only versions that serve the subresource",
                Source.POLICY,
                "{" + rules("'example.com'", "'v2'", "'*'", "'gadgets/status'", "") + "}",
                request(GADGETS_V1, "UPDATE", "plain", "x", "status", "{}", "{}"),
                null));
        c.add(new Case(
                "Equivalent: an exclusion of another version excludes",
                Source.POLICY,
                "{" + ALL_RULES + ",'excludeResourceRules':[{'apiGroups':['example.com'],'apiVersions':['v1'],"
                        + "'operations':['*'],'resources':['widgets']}]}",
                beta,
                null));
        c.add(new Case(
                "Exact: an exclusion of another version does not",
                Source.POLICY,
                "{'matchPolicy':'Exact'," + ALL_RULES + ",'excludeResourceRules':[{'apiGroups':['example.com'],"
                        + "'apiVersions':['v1'],'operations':['*'],'resources':['widgets']}]}",
                beta,
                "v1beta1"));
        // webhooks
        c.add(new Case(
                "webhook: no rules match nothing, selectors or not",
                Source.WEBHOOK,
                "{" + TEAM_A + "}",
                create(CONFIGMAPS, "labelled", "{}"),
                null));
        c.add(new Case(
                "webhook: rules and namespace selector",
                Source.WEBHOOK,
                "{" + TEAM_A + "," + webhookRules("''", "'v1'", "'configmaps'") + "}",
                create(CONFIGMAPS, "labelled", "{}"),
                "v1"));
        c.add(new Case(
                "webhook: Equivalent calls it in the version its rule names",
                Source.WEBHOOK,
                "{" + webhookRules("'example.com'", "'v1'", "'widgets'") + "}",
                beta,
                "v1"));
        c.add(new Case(
                "webhook: Equivalent takes a served version a rule names, not the first it names",
                Source.WEBHOOK,
                "{" + webhookRules("'example.com'", "'v9', 'v1'", "'widgets'") + "}",
                beta,
                "v1"));
        c.add(new Case(
                "webhook: Exact does not call it for another version",
                Source.WEBHOOK,
                "{'matchPolicy':'Exact'," + webhookRules("'example.com'", "'v1'", "'widgets'") + "}",
                beta,
                null));
        c.add(new Case(
                "webhook: object selector against the old object",
                Source.WEBHOOK,
                "{'objectSelector':{'matchLabels':{'tier':'web'}}," + webhookRules("'*'", "'*'", "'*'") + "}",
                request(CONFIGMAPS, "DELETE", "plain", "x", "", null, "{'tier':'web'}"),
                "v1"));
        return c.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesAsKubeApiserver(Case c) {
        JsonNode match = json(c.match());
        Optional<ResourceDefinition> matched = switch (c.source()) {
            case POLICY -> MatchResources.policy(match, c.request(), CLUSTER);
            case WEBHOOK -> MatchResources.webhook(match, c.request(), CLUSTER);
        };
        assertThat(matched.map(ResourceDefinition::version).orElse(null)).isEqualTo(c.version());
        matched.ifPresent(
                d -> assertThat(d.plural()).isEqualTo(c.request().resource().plural()));
    }
}
