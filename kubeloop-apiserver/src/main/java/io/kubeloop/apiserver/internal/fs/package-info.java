/**
 * Owner-only files and directories ({@link io.kubeloop.apiserver.internal.fs.PrivateFiles}) for everything the server
 * writes that holds a credential or the objects themselves: kubeconfigs, TLS material, the token file and the
 * write-ahead log.
 *
 * <p>Internal to kubeloop-apiserver and no API: the module does not export it; it may change in any
 * release.
 */
package io.kubeloop.apiserver.internal.fs;
