package io.kubeloop.cli;

/** A command that talks to an API server through {@link ConnectionOptions}. */
interface ConnectedCommand {

    ConnectionOptions connection();
}
