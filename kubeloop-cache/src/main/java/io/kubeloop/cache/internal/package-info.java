/**
 * Not API: the informer queues between a reflector and an informer's cache, used by kubeloop-cache
 * itself and exported to no module. {@code RealFifo} keeps global arrival order with atomic relists
 * (the default); {@code DeltaFifo} keeps per-key lists of {@code Delta}s (client-go's classic
 * queue); {@code InformerOptions.Queue} picks one.
 */
package io.kubeloop.cache.internal;
