/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, after client-go's
 * {@code tools/leaderelection}: a {@link io.kubeloop.controller.leader.LeaderElector} per candidate,
 * configured by a {@link io.kubeloop.controller.leader.LeaderElectionOptions}, reporting through
 * {@link io.kubeloop.controller.leader.LeaderCallbacks}. Each elector runs on one virtual thread and
 * reads and writes the Lease through the kubeloop client with optimistic concurrency.
 */
package io.kubeloop.controller.leader;
