/** The embedded server's live view: its resources and a feed of changes, in a browser. */
package io.kubeloop.apiserver.internal.live;
