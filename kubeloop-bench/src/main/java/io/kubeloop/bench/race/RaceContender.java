package io.kubeloop.bench.race;

import java.util.Arrays;
import java.util.List;

/**
 * One contender of the race: a framework's operator as written ({@code kubeloop}, {@code josdk},
 * {@code k8s-java}), or, for finding where kubeloop's time goes, kubeloop's with diagnostic changes
 * named after a {@code +} each (see {@link KubeloopOperatorChild}): {@code kubeloop+workers=8},
 * {@code kubeloop+no-events}, {@code kubeloop+no-deep-copy}, {@code kubeloop+keep-managed-fields}, {@code kubeloop+http2}, or
 * several, e.g.
 * {@code kubeloop+workers=8+no-events}. The ratios of the report are taken between the operators as
 * written only.
 *
 * @param framework the framework
 * @param variant the diagnostic changes, passed to the operator's main after the kubeconfig; empty for
 *     the operator as written
 */
record RaceContender(Framework framework, List<String> variant) {

    RaceContender {
        variant = List.copyOf(variant);
        if (!variant.isEmpty() && framework != Framework.KUBELOOP) {
            throw new IllegalArgumentException("only kubeloop has diagnostic variants, not " + framework.label());
        }
    }

    /** The operator as written. */
    static RaceContender of(Framework framework) {
        return new RaceContender(framework, List.of());
    }

    /**
     * The contender called {@code label}, e.g. {@code josdk} or {@code kubeloop+workers=8}.
     *
     * @throws IllegalArgumentException for an unknown framework
     */
    static RaceContender of(String label) {
        String[] parts = label.split("\\+");
        return new RaceContender(Framework.of(parts[0]), Arrays.asList(parts).subList(1, parts.length));
    }

    /** True for a framework's operator as written. */
    boolean asWritten() {
        return variant.isEmpty();
    }

    /** The name in tables and on the command line. */
    String label() {
        return variant.isEmpty() ? framework.label() : framework.label() + "+" + String.join("+", variant);
    }
}
