package io.kubeloop.controller;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The one place that names micrometer-registry-prometheus, an optional dependency of
 * kubeloop-controller. This class names none of the registry's types, so loading it never needs
 * them; {@link Prometheus}, which does, is loaded only once {@link #AVAILABLE} said they are there.
 *
 * <p>Stateless; thread-safe.
 */
final class PrometheusMetrics {

    /** The artifact a user adds to serve {@code /metrics}. */
    static final String ARTIFACT = "io.micrometer:micrometer-registry-prometheus";

    /** The registry's class, looked up by name. */
    private static final String REGISTRY = "io.micrometer.prometheusmetrics.PrometheusMeterRegistry";

    /**
     * True when the Prometheus registry can be loaded: on the class path, or in a module the boot
     * layer resolved (kubeloop-controller reads it through {@code requires static}).
     */
    static final boolean AVAILABLE = registryLoadable();

    private PrometheusMetrics() {}

    private static boolean registryLoadable() {
        try {
            Class.forName(REGISTRY, false, PrometheusMetrics.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** A new Prometheus registry; only when {@link #AVAILABLE}. */
    static MeterRegistry newRegistry() {
        return Prometheus.newRegistry();
    }

    /** The Prometheus text of a registry {@link #newRegistry()} made. */
    static String scrape(MeterRegistry registry) {
        return Prometheus.scrape(registry);
    }

    /** Why {@code what} cannot be done: the artifact is missing, and how to add it. */
    static String missing(String what) {
        return what + " needs " + ARTIFACT + " on the class path; add that dependency (on the module path,"
                + " a module that requires micrometer.registry.prometheus)";
    }

    /** The calls into the registry; loaded only when it is there. */
    private static final class Prometheus {

        static MeterRegistry newRegistry() {
            return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        }

        static String scrape(MeterRegistry registry) {
            return ((PrometheusMeterRegistry) registry).scrape();
        }
    }
}
