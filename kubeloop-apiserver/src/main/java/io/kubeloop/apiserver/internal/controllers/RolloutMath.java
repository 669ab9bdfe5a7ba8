package io.kubeloop.apiserver.internal.controllers;

import tools.jackson.databind.JsonNode;

/**
 * The arithmetic of a Deployment's rolling update, as kube-controller-manager does it: how many Pods above
 * the desired count may exist ({@code maxSurge}, rounded up) and how many below it may be unavailable
 * ({@code maxUnavailable}, rounded down; 1 when both come to 0), how far the new ReplicaSet may grow, and how
 * many old Pods may go.
 *
 * <p>Stateless and thread-safe.
 */
final class RolloutMath {

    private RolloutMath() {}

    /** A Deployment's resolved limits. */
    record Limits(int maxSurge, int maxUnavailable) {}

    /**
     * The limits of {@code deployment} for {@code replicas} desired: both 0 unless its strategy is
     * {@code RollingUpdate}; {@code maxUnavailable} never above {@code replicas}.
     */
    static Limits limits(JsonNode deployment, int replicas) {
        JsonNode strategy = deployment.path("spec").path("strategy");
        if (!strategy.path("type").asString("RollingUpdate").equals("RollingUpdate")) {
            return new Limits(0, 0);
        }
        JsonNode rolling = strategy.path("rollingUpdate");
        int surge = scaled(rolling.path("maxSurge"), replicas, true);
        int unavailable = scaled(rolling.path("maxUnavailable"), replicas, false);
        if (surge == 0 && unavailable == 0) {
            unavailable = 1;
        }
        return new Limits(surge, replicas == 0 ? 0 : Math.min(unavailable, replicas));
    }

    /**
     * An int-or-percent value of {@code total}: the number itself, or the percentage rounded up or down;
     * absent means 25%.
     */
    static int scaled(JsonNode intOrPercent, int total, boolean roundUp) {
        if (intOrPercent.isNumber()) {
            return Math.max(0, intOrPercent.asInt());
        }
        String text = intOrPercent.asString("25%").trim();
        if (!text.endsWith("%")) {
            try {
                return Math.max(0, Integer.parseInt(text));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        int percent;
        try {
            percent = Integer.parseInt(text.substring(0, text.length() - 1));
        } catch (NumberFormatException e) {
            return 0;
        }
        long product = (long) percent * total;
        return (int) (roundUp ? (product + 99) / 100 : product / 100);
    }

    /**
     * The new ReplicaSet's replicas after one scale-up step: up to {@code desired + maxSurge} Pods in all
     * ReplicaSets together, never above {@code desired}.
     *
     * @param allReplicas the sum of every ReplicaSet's {@code spec.replicas}, the new one included
     */
    static int newReplicaSetReplicas(int desired, int maxSurge, int allReplicas, int newReplicas) {
        int maxTotal = desired + maxSurge;
        if (allReplicas >= maxTotal) {
            return newReplicas;
        }
        int up = Math.min(maxTotal - allReplicas, desired - newReplicas);
        return newReplicas + Math.max(0, up);
    }

    /**
     * How many old Pods may be scaled down now without going below {@code desired - maxUnavailable} available:
     * the Pods of all ReplicaSets, less the minimum available, less the new ReplicaSet's Pods not yet available.
     */
    static int oldScaleDownBudget(int allReplicas, int desired, int maxUnavailable, int newReplicas, int newAvailable) {
        int minAvailable = desired - maxUnavailable;
        return allReplicas - minAvailable - (newReplicas - newAvailable);
    }
}
