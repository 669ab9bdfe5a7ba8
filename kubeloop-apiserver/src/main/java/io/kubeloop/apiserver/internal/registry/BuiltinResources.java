package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.apiserver.internal.printers.BuiltinColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The built-in resources the embedded server serves, as data: one row per resource with the names,
 * scope, verbs and subresources the real kube-apiserver 1.33 advertises.
 *
 * <p>Stateless and thread-safe.
 */
public final class BuiltinResources {

    private BuiltinResources() {}

    private static final List<String> NO_DELETECOLLECTION =
            List.of("create", "delete", "get", "list", "patch", "update", "watch");

    private static final Set<String> POD_FIELDS = Set.of(
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName");
    private static final Set<String> EVENT_FIELDS = Set.of(
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type");

    /** Row builder: keeps the table below readable. */
    private record Row(
            String group,
            String version,
            String plural,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            List<String> categories,
            Set<String> subresources,
            NameRule nameRule,
            boolean generation,
            boolean returnsObject,
            Set<String> fields,
            List<String> verbs,
            ResourceDefinition.ScalePaths scale) {

        ResourceDefinition definition() {
            return new ResourceDefinition(
                    group,
                    version,
                    plural,
                    kind,
                    null,
                    null,
                    shortNames,
                    categories,
                    namespaced,
                    verbs,
                    subresources,
                    nameRule,
                    generation,
                    false,
                    returnsObject,
                    fields,
                    BuiltinColumns.forResource(plural),
                    null,
                    scale);
        }
    }

    private static Row row(
            String group,
            String version,
            String plural,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            List<String> categories,
            Set<String> subresources) {
        return new Row(
                group,
                version,
                plural,
                kind,
                namespaced,
                shortNames,
                categories,
                subresources,
                NameRule.SUBDOMAIN,
                false,
                false,
                Set.of(),
                ResourceDefinition.ALL_VERBS,
                null);
    }

    /** A row of a kind whose spec changes bump {@code metadata.generation}. */
    private static Row generational(
            String group,
            String version,
            String plural,
            String kind,
            boolean namespaced,
            List<String> shortNames,
            List<String> categories,
            Set<String> subresources) {
        Row r = row(group, version, plural, kind, namespaced, shortNames, categories, subresources);
        return new Row(
                r.group(),
                r.version(),
                r.plural(),
                r.kind(),
                namespaced,
                shortNames,
                categories,
                subresources,
                NameRule.SUBDOMAIN,
                true,
                false,
                Set.of(),
                ResourceDefinition.ALL_VERBS,
                null);
    }

    /** A create-only review resource: answered from the request, never stored. */
    private static Row reviews(String group, String plural, String kind, boolean namespaced) {
        return new Row(
                group,
                "v1",
                plural,
                kind,
                namespaced,
                List.of(),
                List.of(),
                Set.of(),
                NameRule.SUBDOMAIN,
                false,
                false,
                Set.of(),
                List.of("create"),
                null);
    }

    private static final ResourceDefinition.ScalePaths REPLICAS =
            new ResourceDefinition.ScalePaths(".spec.replicas", ".status.replicas", ".spec.selector");

    /** Every built-in resource definition, in discovery order (core first, then groups). */
    public static List<ResourceDefinition> all() {
        List<String> all = List.of("all");
        List<Row> rows = new ArrayList<>();
        Row ns =
                row("", "v1", "namespaces", "Namespace", false, List.of("ns"), List.of(), Set.of("status", "finalize"));
        rows.add(new Row(
                ns.group(),
                ns.version(),
                ns.plural(),
                ns.kind(),
                false,
                ns.shortNames(),
                List.of(),
                ns.subresources(),
                NameRule.LABEL,
                false,
                true,
                Set.of("status.phase"),
                NO_DELETECOLLECTION,
                null));
        rows.add(row("", "v1", "configmaps", "ConfigMap", true, List.of("cm"), List.of(), Set.of()));
        rows.add(row("", "v1", "endpoints", "Endpoints", true, List.of("ep"), List.of(), Set.of()));
        Row ev = row("", "v1", "events", "Event", true, List.of("ev"), List.of(), Set.of());
        rows.add(new Row(
                ev.group(),
                ev.version(),
                ev.plural(),
                ev.kind(),
                true,
                ev.shortNames(),
                List.of(),
                Set.of(),
                NameRule.SUBDOMAIN,
                false,
                false,
                EVENT_FIELDS,
                ResourceDefinition.ALL_VERBS,
                null));
        Row node = row("", "v1", "nodes", "Node", false, List.of("no"), List.of(), Set.of("status"));
        rows.add(new Row(
                node.group(),
                node.version(),
                node.plural(),
                node.kind(),
                false,
                node.shortNames(),
                List.of(),
                node.subresources(),
                NameRule.SUBDOMAIN,
                false,
                false,
                Set.of("spec.unschedulable"),
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(new Row(
                "",
                "v1",
                "pods",
                "Pod",
                true,
                List.of("po"),
                all,
                Set.of("status", "log", "binding", "eviction"),
                NameRule.SUBDOMAIN,
                false,
                true,
                POD_FIELDS,
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(new Row(
                "",
                "v1",
                "secrets",
                "Secret",
                true,
                List.of(),
                List.of(),
                Set.of(),
                NameRule.SUBDOMAIN,
                false,
                false,
                Set.of("type"),
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(new Row(
                "",
                "v1",
                "serviceaccounts",
                "ServiceAccount",
                true,
                List.of("sa"),
                List.of(),
                Set.of("token"),
                NameRule.SUBDOMAIN,
                false,
                true,
                Set.of(),
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(new Row(
                "",
                "v1",
                "services",
                "Service",
                true,
                List.of("svc"),
                all,
                Set.of("status"),
                NameRule.DNS1035,
                false,
                true,
                Set.of("spec.clusterIP", "spec.type"),
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(row("", "v1", "limitranges", "LimitRange", true, List.of("limits"), List.of(), Set.of()));
        rows.add(row(
                "",
                "v1",
                "persistentvolumeclaims",
                "PersistentVolumeClaim",
                true,
                List.of("pvc"),
                List.of(),
                Set.of("status")));
        rows.add(row(
                "", "v1", "persistentvolumes", "PersistentVolume", false, List.of("pv"), List.of(), Set.of("status")));
        rows.add(row("", "v1", "podtemplates", "PodTemplate", true, List.of(), List.of(), Set.of()));
        rows.add(row("", "v1", "resourcequotas", "ResourceQuota", true, List.of("quota"), List.of(), Set.of("status")));
        rows.add(row("apps", "v1", "controllerrevisions", "ControllerRevision", true, List.of(), List.of(), Set.of()));
        for (String[] w : new String[][] {
            {"daemonsets", "DaemonSet", "ds"},
            {"deployments", "Deployment", "deploy"},
            {"replicasets", "ReplicaSet", "rs"},
            {"statefulsets", "StatefulSet", "sts"}
        }) {
            boolean scalable = !w[0].equals("daemonsets");
            rows.add(new Row(
                    "apps",
                    "v1",
                    w[0],
                    w[1],
                    true,
                    List.of(w[2]),
                    all,
                    scalable ? Set.of("status", "scale") : Set.of("status"),
                    NameRule.SUBDOMAIN,
                    true,
                    false,
                    Set.of(),
                    ResourceDefinition.ALL_VERBS,
                    scalable ? REPLICAS : null));
        }
        rows.add(new Row(
                "batch",
                "v1",
                "cronjobs",
                "CronJob",
                true,
                List.of("cj"),
                all,
                Set.of("status"),
                NameRule.SUBDOMAIN,
                true,
                false,
                Set.of(),
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(new Row(
                "batch",
                "v1",
                "jobs",
                "Job",
                true,
                List.of(),
                all,
                Set.of("status"),
                NameRule.SUBDOMAIN,
                true,
                false,
                Set.of(),
                ResourceDefinition.ALL_VERBS,
                null));
        rows.add(generational(
                "autoscaling",
                "v2",
                "horizontalpodautoscalers",
                "HorizontalPodAutoscaler",
                true,
                List.of("hpa"),
                all,
                Set.of("status")));
        rows.add(
                row("discovery.k8s.io", "v1", "endpointslices", "EndpointSlice", true, List.of(), List.of(), Set.of()));
        rows.add(generational(
                "networking.k8s.io", "v1", "ingresses", "Ingress", true, List.of("ing"), List.of(), Set.of("status")));
        rows.add(row(
                "networking.k8s.io", "v1", "ingressclasses", "IngressClass", false, List.of(), List.of(), Set.of()));
        rows.add(generational(
                "networking.k8s.io",
                "v1",
                "networkpolicies",
                "NetworkPolicy",
                true,
                List.of("netpol"),
                List.of(),
                Set.of()));
        rows.add(row(
                "policy",
                "v1",
                "poddisruptionbudgets",
                "PodDisruptionBudget",
                true,
                List.of("pdb"),
                List.of(),
                Set.of("status")));
        rows.add(reviews("authentication.k8s.io", "selfsubjectreviews", "SelfSubjectReview", false));
        rows.add(reviews("authentication.k8s.io", "tokenreviews", "TokenReview", false));
        rows.add(reviews("authorization.k8s.io", "localsubjectaccessreviews", "LocalSubjectAccessReview", true));
        rows.add(reviews("authorization.k8s.io", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false));
        rows.add(reviews("authorization.k8s.io", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false));
        rows.add(reviews("authorization.k8s.io", "subjectaccessreviews", "SubjectAccessReview", false));
        rows.add(row("coordination.k8s.io", "v1", "leases", "Lease", true, List.of(), List.of(), Set.of()));
        for (String[] r : new String[][] {
            {"clusterrolebindings", "ClusterRoleBinding", "false"},
            {"clusterroles", "ClusterRole", "false"},
            {"rolebindings", "RoleBinding", "true"},
            {"roles", "Role", "true"}
        }) {
            rows.add(new Row(
                    "rbac.authorization.k8s.io",
                    "v1",
                    r[0],
                    r[1],
                    Boolean.parseBoolean(r[2]),
                    List.of(),
                    List.of(),
                    Set.of(),
                    NameRule.PATH_SEGMENT,
                    false,
                    false,
                    Set.of(),
                    ResourceDefinition.ALL_VERBS,
                    null));
        }
        rows.add(row(
                "scheduling.k8s.io",
                "v1",
                "priorityclasses",
                "PriorityClass",
                false,
                List.of("pc"),
                List.of(),
                Set.of()));
        rows.add(row(
                "storage.k8s.io", "v1", "storageclasses", "StorageClass", false, List.of("sc"), List.of(), Set.of()));
        rows.add(generational(
                "admissionregistration.k8s.io",
                "v1",
                "mutatingwebhookconfigurations",
                "MutatingWebhookConfiguration",
                false,
                List.of(),
                List.of("api-extensions"),
                Set.of()));
        rows.add(generational(
                "admissionregistration.k8s.io",
                "v1",
                "validatingadmissionpolicies",
                "ValidatingAdmissionPolicy",
                false,
                List.of(),
                List.of("api-extensions"),
                Set.of("status")));
        rows.add(generational(
                "admissionregistration.k8s.io",
                "v1",
                "validatingadmissionpolicybindings",
                "ValidatingAdmissionPolicyBinding",
                false,
                List.of(),
                List.of("api-extensions"),
                Set.of()));
        rows.add(generational(
                "admissionregistration.k8s.io",
                "v1",
                "validatingwebhookconfigurations",
                "ValidatingWebhookConfiguration",
                false,
                List.of(),
                List.of("api-extensions"),
                Set.of()));
        rows.add(row("events.k8s.io", "v1", "events", "Event", true, List.of("ev"), List.of(), Set.of()));
        rows.add(new Row(
                "apiextensions.k8s.io",
                "v1",
                "customresourcedefinitions",
                "CustomResourceDefinition",
                false,
                List.of("crd", "crds"),
                List.of("api-extensions"),
                Set.of("status"),
                NameRule.SUBDOMAIN,
                true,
                true,
                Set.of(),
                ResourceDefinition.ALL_VERBS,
                null));
        return rows.stream().map(Row::definition).toList();
    }
}
