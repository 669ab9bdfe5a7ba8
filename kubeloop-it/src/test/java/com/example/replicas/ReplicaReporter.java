package com.example.replicas;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kubeloop.api.Scheme;
import io.kubeloop.api.errors.NotFoundException;
import io.kubeloop.cache.InformerScope;
import io.kubeloop.cache.Lister;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.controller.ControllerBuilder;
import io.kubeloop.controller.Manager;
import io.kubeloop.controller.Reconciler;
import io.kubeloop.controller.Request;
import io.kubeloop.controller.Result;
import io.kubeloop.controller.util.CreateOrUpdate;
import io.kubeloop.controller.util.OwnerReferences;
import java.util.Map;

/** Keeps a ConfigMap "<name>-replicas" beside every Deployment, holding the replicas it asks for. */
public final class ReplicaReporter implements Reconciler {

    private final Lister<Deployment> deployments;
    private final ResourceClient<ConfigMap> configMaps;

    ReplicaReporter(Lister<Deployment> deployments, ResourceClient<ConfigMap> configMaps) {
        this.deployments = deployments;
        this.configMaps = configMaps;
    }

    @Override
    public Result reconcile(Request request) {
        Deployment deployment;
        try {
            deployment = deployments.namespace(request.namespace()).get(request.name()); // from the cache
        } catch (NotFoundException gone) {
            return Result.done(); // its ConfigMap goes with it: the owner reference below
        }
        String replicas = String.valueOf(deployment.getSpec().getReplicas());
        ConfigMap named = new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace(request.namespace())
                .withName(request.name() + "-replicas")
                .endMetadata()
                .build();
        CreateOrUpdate.apply(configMaps, named, configMap -> {
            ConfigMap owned = OwnerReferences.setControllerReference(deployment, configMap, Scheme.defaults());
            owned.setData(Map.of("replicas", replicas));
            return owned; // no write at all when nothing changed
        });
        return Result.done(); // a throw means: retry with back-off
    }

    /** Starts the controller: one informer per kind, shared; returns once the caches are in sync. */
    public static Manager start(KubeClient client) {
        Manager manager = Manager.create(client);
        var reconciler = new ReplicaReporter(
                manager.informers().listerFor(Deployment.class, InformerScope.all()), client.resource(ConfigMap.class));
        ControllerBuilder.forResource(Deployment.class) // a Deployment's changes reconcile it
                .owns(ConfigMap.class) // so do changes to the ConfigMaps it controls
                .named("replica-reporter")
                .build(manager, reconciler);
        manager.start();
        return manager;
    }

    public static void main(String[] args) throws InterruptedException {
        try (KubeClient client = KubeClient.create(); // the kubeconfig kubectl uses, or in-cluster
                Manager manager = start(client)) {
            manager.awaitTermination(); // until Ctrl-C
        }
    }
}
