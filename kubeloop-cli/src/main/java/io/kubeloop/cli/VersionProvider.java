package io.kubeloop.cli;

import picocli.CommandLine;

/** Reports the kubeloop version from the jar manifest (or "dev" when run from classes). */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"kubeloop " + (v == null ? "dev" : v) + " (java " + Runtime.version() + ")"};
    }
}
