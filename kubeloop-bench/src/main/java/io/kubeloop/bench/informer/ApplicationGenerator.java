package io.kubeloop.bench.informer;

import io.kubeloop.api.json.KubeJson;
import java.time.Instant;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Deterministic, realistic Argo CD {@code Application}s ({@code argoproj.io/v1alpha1}) for the
 * typed-cache benchmark: the shape an Application has on a cluster that Argo CD manages, about 5 KB
 * of compact JSON each — metadata with labels, annotations and Argo CD's finalizer; a spec with a
 * Kustomize or Helm source, a destination and an automated sync policy; and the status Argo CD writes:
 * sync and health, the eight managed resources with their health, two history entries and the last
 * sync operation with its per-resource results.
 *
 * <p>Application {@code i} is always the same object (apart from the resourceVersion the server
 * stamps): names, UIDs, revisions and timestamps derive from {@code i}, and, as on a cluster where each
 * Application deploys its own instance, so do its source's path (Kustomize) or release name (Helm) and
 * the names of the resources it manages; teams, services, environments, repositories and images are
 * shared by many Applications. They are spread over the
 * {@link PodGenerator#NAMESPACES} namespaces of the Pods ({@code bench-0 …}). Every field is one
 * the Application CRD's schema declares, so the typed models of every contender read them all.
 *
 * <p>Stateless and thread-safe.
 */
public final class ApplicationGenerator {

    private static final Instant EPOCH = Instant.parse("2025-03-01T08:00:00Z");
    private static final String[] TEAMS = {"payments", "search", "identity", "platform", "growth"};
    private static final String[] SERVICES = {"api", "worker", "gateway", "scheduler", "web", "indexer", "notifier"};
    private static final String[] ENVS = {"dev", "staging", "prod"};
    /** The resources each Application manages: group, version, kind, name suffix. */
    private static final String[][] MANAGED = {
        {"", "v1", "ServiceAccount", ""},
        {"", "v1", "ConfigMap", "-config"},
        {"", "v1", "Secret", "-env"},
        {"", "v1", "Service", ""},
        {"apps", "v1", "Deployment", ""},
        {"autoscaling", "v2", "HorizontalPodAutoscaler", ""},
        {"policy", "v1", "PodDisruptionBudget", ""},
        {"networking.k8s.io", "v1", "Ingress", ""},
    };

    private ApplicationGenerator() {}

    /** The name of Application {@code i}, unique for each {@code i}. */
    public static String name(int i) {
        return team(i) + "-" + service(i) + "-" + env(i) + "-" + Integer.toString(i, 36);
    }

    /** Application {@code i} as a fresh JSON tree without a resourceVersion. */
    public static ObjectNode application(int i) {
        String team = team(i);
        String service = service(i);
        String env = env(i);
        String target = team + "-" + env;
        String instance = service + "-" + Integer.toString(i, 36);
        boolean helm = i % 3 == 0;
        Instant created = EPOCH.plusSeconds(i);
        Instant synced = created.plusSeconds(3_600L + i % 600);
        String revision = PodGenerator.hash(i * 13L + 1, 40);
        String previous = PodGenerator.hash(i * 13L + 2, 40);

        ObjectNode app = KubeJson.mapper().createObjectNode();
        app.put("apiVersion", "argoproj.io/v1alpha1");
        app.put("kind", "Application");
        ObjectNode meta = app.putObject("metadata");
        meta.put("name", name(i));
        meta.put("namespace", PodGenerator.namespace(i));
        meta.put("uid", PodGenerator.uid(i, 7));
        meta.put("creationTimestamp", created.toString());
        meta.put("generation", 3 + i % 40);
        ObjectNode labels = meta.putObject("labels");
        labels.put("app.kubernetes.io/part-of", team);
        labels.put("app.kubernetes.io/name", service);
        labels.put("environment", env);
        labels.put("argocd.argoproj.io/instance", "apps-" + team);
        ObjectNode annotations = meta.putObject("annotations");
        annotations.put("notifications.argoproj.io/subscribe.on-sync-failed.slack", team + "-alerts");
        annotations.put("argocd.argoproj.io/manifest-generate-paths", ".");
        meta.putArray("finalizers").add("resources-finalizer.argocd.argoproj.io");

        ObjectNode spec = app.putObject("spec");
        spec.put("project", team);
        source(spec.putObject("source"), team, service, env, instance, helm);
        destination(spec.putObject("destination"), target);
        ObjectNode policy = spec.putObject("syncPolicy");
        policy.putObject("automated").put("prune", true).put("selfHeal", true);
        syncOptions(policy.putArray("syncOptions"));
        retry(policy.putObject("retry"));
        spec.put("revisionHistoryLimit", 10);

        ObjectNode status = app.putObject("status");
        ObjectNode sync = status.putObject("sync");
        sync.put("status", "Synced");
        sync.put("revision", revision);
        ObjectNode compared = sync.putObject("comparedTo");
        source(compared.putObject("source"), team, service, env, instance, helm);
        destination(compared.putObject("destination"), target);
        status.putObject("health")
                .put("status", "Healthy")
                .put("lastTransitionTime", synced.plusSeconds(40).toString());
        ArrayNode resources = status.putArray("resources");
        for (String[] m : MANAGED) {
            ObjectNode r = resources.addObject();
            if (!m[0].isEmpty()) {
                r.put("group", m[0]);
            }
            r.put("version", m[1]);
            r.put("kind", m[2]);
            r.put("namespace", target);
            r.put("name", instance + m[3]);
            r.put("status", "Synced");
            if (!m[2].equals("ConfigMap") && !m[2].equals("Secret") && !m[2].equals("ServiceAccount")) {
                r.putObject("health").put("status", "Healthy");
            }
        }
        ArrayNode history = status.putArray("history");
        history(history.addObject(), 1 + i % 50, previous, created.plusSeconds(60), team, service, env, instance, helm);
        history(history.addObject(), 2 + i % 50, revision, synced, team, service, env, instance, helm);
        status.put("reconciledAt", synced.plusSeconds(180).toString());
        ObjectNode op = status.putObject("operationState");
        ObjectNode operation = op.putObject("operation");
        ObjectNode opSync = operation.putObject("sync");
        opSync.put("revision", revision);
        opSync.put("prune", true);
        syncOptions(opSync.putArray("syncOptions"));
        operation.putObject("initiatedBy").put("automated", true);
        retry(operation.putObject("retry"));
        op.put("phase", "Succeeded");
        op.put("message", "successfully synced (all tasks run)");
        op.put("startedAt", synced.toString());
        op.put("finishedAt", synced.plusSeconds(2).toString());
        ObjectNode result = op.putObject("syncResult");
        ArrayNode results = result.putArray("resources");
        for (String[] m : MANAGED) {
            ObjectNode r = results.addObject();
            r.put("group", m[0]);
            r.put("version", m[1]);
            r.put("kind", m[2]);
            r.put("namespace", target);
            r.put("name", instance + m[3]);
            r.put("status", "Synced");
            r.put("message", m[2].toLowerCase(java.util.Locale.ROOT) + "/" + instance + m[3] + " serverside-applied");
            r.put("hookPhase", "Running");
            r.put("syncPhase", "Sync");
        }
        result.put("revision", revision);
        source(result.putObject("source"), team, service, env, instance, helm);
        status.put("sourceType", helm ? "Helm" : "Kustomize");
        ObjectNode summary = status.putObject("summary");
        summary.putArray("images").add(image(team, service, i));
        summary.putArray("externalURLs").add("https://" + service + "." + env + "." + team + ".example.com");
        status.put("controllerNamespace", "argocd");
        return app;
    }

    private static void source(
            ObjectNode source, String team, String service, String env, String instance, boolean helm) {
        source.put("repoURL", "https://github.com/example/" + team + "-deploy.git");
        source.put("targetRevision", env.equals("prod") ? "release" : "main");
        if (helm) {
            source.put("path", "charts/" + service);
            ObjectNode h = source.putObject("helm");
            h.putArray("valueFiles").add("values.yaml").add("values-" + env + ".yaml");
            h.putArray("parameters")
                    .addObject()
                    .put("name", "image.tag")
                    .put("value", "1." + service.length() + "." + env.length());
            h.put("releaseName", instance);
        } else {
            source.put("path", "apps/" + service + "/overlays/" + env + "/" + instance);
            ObjectNode k = source.putObject("kustomize");
            k.putArray("images").add("registry.example.com/" + team + "/" + service + ":1." + service.length());
            k.putObject("commonLabels").put("team", team);
        }
    }

    private static void destination(ObjectNode destination, String namespace) {
        destination.put("server", "https://kubernetes.default.svc");
        destination.put("namespace", namespace);
    }

    private static void syncOptions(ArrayNode options) {
        options.add("CreateNamespace=true").add("ServerSideApply=true").add("PruneLast=true");
    }

    private static void retry(ObjectNode retry) {
        retry.put("limit", 5);
        retry.putObject("backoff").put("duration", "5s").put("factor", 2).put("maxDuration", "3m");
    }

    private static void history(
            ObjectNode entry,
            long id,
            String revision,
            Instant at,
            String team,
            String service,
            String env,
            String instance,
            boolean helm) {
        entry.put("id", id);
        entry.put("revision", revision);
        entry.put("deployStartedAt", at.toString());
        entry.put("deployedAt", at.plusSeconds(2).toString());
        source(entry.putObject("source"), team, service, env, instance, helm);
        entry.putObject("initiatedBy").put("automated", true);
    }

    private static String image(String team, String service, int i) {
        return "registry.example.com/" + team + "/" + service + ":1." + service.length() + "." + (i % 4);
    }

    private static String team(int i) {
        return TEAMS[i % TEAMS.length];
    }

    private static String service(int i) {
        return SERVICES[(i / TEAMS.length) % SERVICES.length];
    }

    private static String env(int i) {
        return ENVS[(i / (TEAMS.length * SERVICES.length)) % ENVS.length];
    }
}
