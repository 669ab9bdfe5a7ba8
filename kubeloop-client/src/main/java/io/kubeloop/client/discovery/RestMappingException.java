package io.kubeloop.client.discovery;

/**
 * A {@link RestMapper} could not give exactly one answer: nothing matched
 * ({@link NoMatchException}) or several did ({@link AmbiguousMatchException}).
 */
public abstract sealed class RestMappingException extends RuntimeException
        permits NoMatchException, AmbiguousMatchException {

    private final String input;

    RestMappingException(String input, String message) {
        super(message);
        this.input = input;
    }

    /** What the caller asked for, as given ({@code deploy.apps}, {@code Foo.samplecontroller.k8s.io}). */
    public String input() {
        return input;
    }
}
