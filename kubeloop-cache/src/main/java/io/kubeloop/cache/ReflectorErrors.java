package io.kubeloop.cache;

import io.kubeloop.api.errors.ApiException;
import io.kubeloop.api.errors.Causes;
import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.api.errors.GoneException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.errors.TooManyRequestsException;
import io.kubeloop.api.errors.UnauthorizedException;
import io.kubeloop.client.http.TransportException;
import java.net.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link Reflector} classifies the errors that end a list or a watch (client-go's
 * {@code isExpiredError}, {@code isTooLargeResourceVersionError} and the retriable watch-start
 * errors), and its default {@link WatchErrorHandler}.
 *
 * <p>Stateless; thread-safe.
 */
final class ReflectorErrors {

    private static final Logger LOG = LoggerFactory.getLogger(Reflector.class);

    /** The default error handler: logs (410 at debug level, as it is routine). */
    static final WatchErrorHandler LOGGING_ERROR_HANDLER = (reflector, error) -> {
        if (error instanceof GoneException) {
            LOG.debug("{}: watch closed with 410, relisting: {}", reflector.name(), error.getMessage());
        } else if (isAccessDenied(error)) {
            LOG.error(
                    "{}: the server refused to list or watch ({}): {}; this informer retries with back-off and"
                            + " cannot sync until the client's identity is granted the permission",
                    reflector.name(),
                    ((ApiException) error).code(),
                    error.getMessage());
        } else {
            LOG.warn("{}: list-and-watch failed: {}", reflector.name(), error.toString());
        }
    };

    private ReflectorErrors() {}

    /** 401 or 403: the client's identity is unknown to the server, or may not list or watch. */
    static boolean isAccessDenied(Throwable e) {
        return e instanceof ForbiddenException || e instanceof UnauthorizedException;
    }

    /**
     * 410 Gone (the resourceVersion left the server's window), or 504 "Too large resource version"
     * (the server's cache is behind the asked resourceVersion): list again from {@code ""}.
     */
    static boolean isExpiredOrTooLarge(Throwable e) {
        if (e instanceof GoneException) {
            return true;
        }
        if (e instanceof ApiException a && a.code() == 504) {
            Status s = a.status();
            boolean cause = s.causes().stream().anyMatch(c -> "ResourceVersionTooLarge".equals(c.reason()));
            return cause || (s.message() != null && s.message().contains("Too large resource version"));
        }
        return false;
    }

    /** Connection refused or 429: back off and watch again without a list. */
    static boolean isRetriableStartError(Throwable e) {
        if (e instanceof TooManyRequestsException) {
            return true;
        }
        return e instanceof TransportException && Causes.has(e, ConnectException.class);
    }
}
