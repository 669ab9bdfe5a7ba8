package io.kubeloop.cache;

/**
 * Called whenever a {@link Reflector}'s list-and-watch cycle ends with an error, before it backs off
 * and starts over (client-go's {@code WatchErrorHandler}). The default logs. Use it to count
 * errors or to surface authorisation failures; it must not block for long.
 *
 * <p>Called on the reflector's thread.
 */
@FunctionalInterface
public interface WatchErrorHandler {

    /**
     * @param reflector the reflector whose cycle failed
     * @param error what ended the cycle (e.g. {@code GoneException} before a relist)
     */
    void onError(Reflector<?> reflector, Throwable error);

    /**
     * The default handler: logs the error with the reflector's name — a 410 at debug level (a relist is
     * routine), a refusal (401, 403) at error level saying the informer cannot sync until the permission is
     * granted, anything else as a warning. For handlers that add to it and then delegate.
     */
    static WatchErrorHandler logging() {
        return ReflectorErrors.LOGGING_ERROR_HANDLER;
    }
}
