/**
 * kubeloop's REST client. {@link io.kubeloop.client.KubeClient} is the entry point (one per server,
 * configured by a {@link io.kubeloop.client.config.ClientConfig} and
 * {@link io.kubeloop.client.ClientOptions}); {@link io.kubeloop.client.ResourceClient} reads and
 * writes one resource as {@link io.kubeloop.api.DynamicObject} or any Jackson-mappable type: get,
 * list (pages and {@code listAll}), watch, create, update, updateStatus, the four patch types,
 * delete and deleteCollection, with options records that map one to one onto the API's query
 * parameters. {@link io.kubeloop.client.Watch} decodes a watch stream into the sealed
 * {@link io.kubeloop.client.WatchEvent} family as it arrives: kubeloop's byte-level
 * {@code JsonScanner} finds each event and its {@code type} and {@code object},
 * a {@link io.kubeloop.api.DynamicObject} is read compact from the object's bytes, and Jackson maps
 * only other types, bookmarks, errors and what the scanner does not accept. A watch never blocks
 * forever on a silent connection: a deadline and, for watches with bookmarks, an idle timeout end it
 * with a {@link io.kubeloop.client.WatchTimeoutException}.
 *
 * <p>Everything here is immutable and thread-safe except a {@code Watch}, which has one consumer
 * (and may be closed from any thread).
 */
package io.kubeloop.client;
