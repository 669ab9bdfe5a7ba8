package com.example.replicas;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.Scheme;
import io.kubeloop.client.KubeClient;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.OperatorMain;
import io.kubeloop.controller.ReconcileContext;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.util.OwnerReferences;
import java.util.Map;
import java.util.Optional;

/** Keeps a ConfigMap "<name>-replicas" beside every Deployment, holding the replicas it asks for. */
public final class ReplicaReporter implements Reconciler {

    static final String NAME = "replica-reporter";

    @Override
    public Result reconcile(Request request, ReconcileContext context) {
        Optional<Deployment> found = context.client().getOptional(Deployment.class, request.key()); // from the cache
        if (found.isEmpty()) {
            return Result.done(); // its ConfigMap goes with it: the owner reference below
        }
        Deployment deployment = found.get();
        ConfigMap desired = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace(request.namespace())
                .withName(request.name() + "-replicas")
                .endMetadata()
                .withData(Map.of("replicas", String.valueOf(deployment.getSpec().getReplicas())))
                .build();
        desired = OwnerReferences.setControllerReference(deployment, desired, Scheme.defaults());
        context.client().apply(desired, NAME); // server-side apply: creates it, or changes what differs
        return Result.done(); // a throw means: retry with back-off
    }

    /** Adds the controller to a manager: one informer per kind, shared. */
    public static void addTo(Manager manager) {
        ControllerBuilder.forResource(Deployment.class) // a Deployment's changes reconcile it
                .owns(ConfigMap.class) // so do changes to the ConfigMaps it controls
                .named(NAME)
                .build(manager, new ReplicaReporter());
    }

    /** Starts the controller in a manager of its own; returns once the caches are in sync. */
    public static Manager start(KubeClient client) {
        Manager manager = Manager.create(client);
        addTo(manager);
        manager.start();
        return manager;
    }

    /** The kubeconfig kubectl uses, or in-cluster; --leader-elect, probes on :8081...; until Ctrl-C. */
    public static void main(String[] args) {
        OperatorMain.run(NAME, args, ReplicaReporter::addTo);
    }
}
