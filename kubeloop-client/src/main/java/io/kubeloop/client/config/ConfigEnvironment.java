package io.kubeloop.client.config;

import io.kubeloop.time.Ticker;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The parts of the outside world that configuration loading reads, made explicit so that tests can
 * replace them: environment variables ({@code KUBECONFIG}, {@code KUBERNETES_SERVICE_HOST},
 * {@code KUBERNETES_SERVICE_PORT}, {@code POD_NAMESPACE}; also the base environment of exec
 * credential plugins), the home directory ({@code ~/.kube/config}), the service-account directory
 * (in-cluster token, CA and namespace) and the clock (token-file re-reads, exec credential expiry).
 *
 * <p>Immutable and thread-safe.
 *
 * @param variables environment variables
 * @param home the user's home directory
 * @param serviceAccountDir normally {@code /var/run/secrets/kubernetes.io/serviceaccount}
 * @param clock the time source
 */
public record ConfigEnvironment(Map<String, String> variables, Path home, Path serviceAccountDir, Ticker clock) {

    /** Where Kubernetes mounts the pod's service account. */
    public static final Path DEFAULT_SERVICE_ACCOUNT_DIR = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    public ConfigEnvironment {
        variables = Map.copyOf(Objects.requireNonNull(variables, "variables"));
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(serviceAccountDir, "serviceAccountDir");
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * The variable naming another service-account directory than {@link #DEFAULT_SERVICE_ACCOUNT_DIR}: a
     * process started as a pod would be, outside a pod (tests, a local run with a ServiceAccount's token).
     */
    public static final String SERVICE_ACCOUNT_DIR_VARIABLE = "KUBELOOP_SERVICE_ACCOUNT_DIR";

    /**
     * The real process environment: {@link System#getenv()}, home from {@code HOME} (else the
     * {@code user.home} property), the service-account directory ({@value #SERVICE_ACCOUNT_DIR_VARIABLE} when
     * set, else the default) and the system clock.
     */
    public static ConfigEnvironment system() {
        Map<String, String> env = System.getenv();
        String home = env.get("HOME");
        if (home == null || home.isEmpty()) {
            home = System.getProperty("user.home");
        }
        String accountDir = env.get(SERVICE_ACCOUNT_DIR_VARIABLE);
        return new ConfigEnvironment(
                env,
                Path.of(home),
                accountDir == null || accountDir.isEmpty() ? DEFAULT_SERVICE_ACCOUNT_DIR : Path.of(accountDir),
                Ticker.system());
    }

    /** This environment with other variables. */
    public ConfigEnvironment withVariables(Map<String, String> newVariables) {
        return new ConfigEnvironment(newVariables, home, serviceAccountDir, clock);
    }

    /** This environment with another home directory. */
    public ConfigEnvironment withHome(Path newHome) {
        return new ConfigEnvironment(variables, newHome, serviceAccountDir, clock);
    }

    /** This environment with another service-account directory. */
    public ConfigEnvironment withServiceAccountDir(Path dir) {
        return new ConfigEnvironment(variables, home, dir, clock);
    }

    /** This environment with another clock. */
    public ConfigEnvironment withClock(Ticker newClock) {
        return new ConfigEnvironment(variables, home, serviceAccountDir, newClock);
    }

    /** The variable's value, or null when unset or empty. */
    String variable(String name) {
        String value = variables.get(name);
        return value == null || value.isEmpty() ? null : value;
    }
}
