package com.example.websites;

import io.kubeloop.api.Condition;
import io.kubeloop.api.Conditions;
import io.kubeloop.controller.Controller;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.OperatorMain;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.rbac.Permission;
import io.kubeloop.controller.util.Applied;
import io.kubeloop.controller.util.OwnedObjects;
import io.kubeloop.models.apps.v1.Deployment;
import io.kubeloop.models.core.v1.ConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Serves every Website: a ConfigMap with its page, an nginx Deployment that mounts it, a Ready condition. */
@Permission(
        groups = "",
        resources = "configmaps",
        verbs = {"create", "patch"})
@Permission(
        groups = "apps",
        resources = "deployments",
        verbs = {"create", "patch"})
@Permission(groups = "demo.example.com", resources = "websites/status", verbs = "update")
public final class WebsiteOperator implements Reconciler {

    static final String NAME = "website-operator";
    static final String FINALIZER = "demo.example.com/unpublish";

    @Override
    public Result reconcile(Request request, ReconcileContext context) {
        Optional<Website> found = context.client().getOptional(Website.class, request.key()); // from the cache
        if (found.isEmpty()) {
            return Result.done(); // deleted: what it owned goes with it (owner references)
        }
        Website site = found.get();
        String name = site.metadata().name();
        int replicas = site.spec().replicas() == null ? 1 : site.spec().replicas();

        OwnedObjects owned = context.owned(site); // the site's namespace, a controller reference to it
        Applied<ConfigMap> page = owned.apply(page(name, site.spec().html())); // sent only when it differs
        Applied<Deployment> served = owned.apply(nginx(name, replicas));
        if (page.written() || served.written()) {
            context.log().info("website {}: page {}, deployment {}", name, page.outcome(), served.outcome());
        }

        Deployment deployment = served.object(); // as the server answered, or as the cache holds it
        int available = deployment.status() == null || deployment.status().availableReplicas() == null
                ? 0
                : deployment.status().availableReplicas();
        boolean ready = available >= replicas;
        String message = available + "/" + replicas + " replicas available";
        List<Condition> conditions = new ArrayList<>(site.conditions());
        boolean changed = Conditions.setStatusCondition( // the time changes only when the status flips
                conditions,
                Condition.of("Ready", Condition.Status.of(ready), ready ? "Available" : "Progressing", message)
                        .withObservedGeneration(site.metadata().generation()),
                context.ticker());
        Website updated = site.withStatus(new Website.Status(site.metadata().generation(), conditions));
        context.client().status().updateIfChanged(site, updated); // no write, so no reconcile, if nothing changed
        if (changed) {
            context.log().info("website {}: Ready={}, {}", name, ready, message);
        }
        return Result.done(); // a throw means: retry with back-off
    }

    private static ConfigMap page(String name, String html) {
        return ConfigMap.builder()
                .metadata(m -> m.name(name + "-html"))
                .putData("index.html", html)
                .build();
    }

    private static Deployment nginx(String name, int replicas) {
        Map<String, String> labels = Map.of("app.kubernetes.io/name", name);
        return Deployment.builder()
                .metadata(m -> m.name(name))
                .spec(s -> s.replicas(replicas)
                        .selector(l -> l.matchLabels(labels))
                        .template(t -> t.metadata(m -> m.labels(labels))
                                .spec(p -> p.addContainer(c -> c.name("nginx")
                                                .image("nginx:1.27")
                                                .addVolumeMount(
                                                        v -> v.name("html").mountPath("/usr/share/nginx/html")))
                                        .addVolume(v -> v.name("html").configMap(c -> c.name(name + "-html"))))))
                .build();
    }

    /** Adds the controller to a manager; the Maven goal calls it to learn the operator's RBAC. */
    public static Controller addTo(Manager manager) {
        return ControllerBuilder.forResource(Website.class) // a Website's changes reconcile it
                .owns(ConfigMap.class) // so do changes to the objects it controls
                .owns(Deployment.class)
                .withCleanup(FINALIZER, (site, context) -> { // runs once the Website is being deleted
                    // the place to remove what the garbage collector cannot reach: a DNS record, a CDN entry
                    context.log()
                            .info("website {}: unpublished", site.metadata().name());
                    return Result.done(); // the finalizer goes, then the Website
                })
                .named(NAME)
                .build(manager, new WebsiteOperator());
    }

    /** Flags as in kubebuilder's main.go (--help lists them); the kubeconfig kubectl uses, or in-cluster. */
    public static void main(String[] args) {
        OperatorMain.run(NAME, args, WebsiteOperator::addTo);
    }
}
