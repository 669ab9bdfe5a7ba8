/**
 * Owner-only files and directories ({@link io.kubeloop.apiserver.internal.fs.PrivateFiles}) for everything the server
 * writes that holds a credential or the objects themselves: kubeconfigs, TLS material, the token file and the
 * write-ahead log.
 */
package io.kubeloop.apiserver.internal.fs;
