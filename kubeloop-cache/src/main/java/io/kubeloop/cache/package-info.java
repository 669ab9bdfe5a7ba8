/**
 * Informers as client-go's tools/cache: Store, Indexer, the informer queues, Reflector, SharedIndexInformer, InformerFactory and Listers. (Arrives with the informer issue.)
 */
package io.kubeloop.cache;
