/**
 * Work queues as client-go's util/workqueue: deduplicating, delaying and rate-limited queues and their rate limiters. Stands alone, with no Kubernetes dependency.
 */
package io.kubeloop.workqueue;
