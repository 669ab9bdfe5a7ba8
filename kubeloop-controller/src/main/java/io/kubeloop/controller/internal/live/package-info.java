/** The manager's live view of its loops: the page and the snapshots it draws. */
package io.kubeloop.controller.internal.live;
