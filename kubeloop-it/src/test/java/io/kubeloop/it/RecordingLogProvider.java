package io.kubeloop.it;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding of this module's tests (found through {@code META-INF/services}): it records every
 * event, of every level, from every logger and thread, while a {@link Capture} is open
 * ({@link #capture()}). Without an open capture, loggers say every level is off, so logging costs nothing —
 * except that a process started with the system property {@value #ECHO_PROPERTY} (a child process a test
 * runs, whose log the test reads) writes its INFO, WARN and ERROR events to stderr, one line each.
 *
 * <p>Thread-safe.
 */
public final class RecordingLogProvider implements SLF4JServiceProvider {

    /** The system property that makes a process write its INFO, WARN and ERROR events to stderr. */
    public static final String ECHO_PROPERTY = "kubeloop.it.log.stderr";

    private static final boolean ECHO = Boolean.getBoolean(ECHO_PROPERTY);

    /** One logging call as recorded. */
    public record LogEvent(String logger, Level level, String message, Throwable throwable) {}

    /** Records while open; close it to stop. */
    public static final class Capture implements AutoCloseable {
        private final Factory factory;
        private final List<LogEvent> events = new CopyOnWriteArrayList<>();

        private Capture(Factory factory) {
            this.factory = factory;
        }

        /** The events recorded so far, in the order they were logged. */
        public List<LogEvent> events() {
            return List.copyOf(events);
        }

        @Override
        public void close() {
            factory.captures.remove(this);
        }
    }

    /**
     * Starts recording every logging call, until the capture is closed.
     *
     * @throws IllegalStateException when SLF4J is bound to another provider
     */
    public static Capture capture() {
        if (!(LoggerFactory.getILoggerFactory() instanceof Factory factory)) {
            throw new IllegalStateException("SLF4J is bound to "
                    + LoggerFactory.getILoggerFactory().getClass().getName() + ", not to the recording provider");
        }
        Capture capture = new Capture(factory);
        factory.captures.add(capture);
        return capture;
    }

    private final Factory factory = new Factory();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    /** The loggers and the open captures. */
    private static final class Factory implements ILoggerFactory {
        private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
        private final List<Capture> captures = new CopyOnWriteArrayList<>();

        @Override
        public Logger getLogger(String name) {
            return loggers.computeIfAbsent(name, n -> new RecordingLogger(n, this));
        }
    }

    private static final class RecordingLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        private final transient Factory factory;

        RecordingLogger(String name, Factory factory) {
            this.name = name;
            this.factory = factory;
        }

        private boolean on() {
            return !factory.captures.isEmpty();
        }

        private boolean on(Level level) {
            return on() || (ECHO && level.toInt() >= Level.INFO.toInt());
        }

        @Override
        public boolean isTraceEnabled() {
            return on();
        }

        @Override
        public boolean isDebugEnabled() {
            return on();
        }

        @Override
        public boolean isInfoEnabled() {
            return on(Level.INFO);
        }

        @Override
        public boolean isWarnEnabled() {
            return on(Level.WARN);
        }

        @Override
        public boolean isErrorEnabled() {
            return on(Level.ERROR);
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(
                Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
            LogEvent event =
                    new LogEvent(name, level, MessageFormatter.basicArrayFormat(pattern, arguments), throwable);
            for (Capture c : factory.captures) {
                c.events.add(event);
            }
            if (ECHO && level.toInt() >= Level.INFO.toInt()) {
                System.err.println(level + " " + name + " - " + event.message()
                        + (throwable == null ? "" : " (" + throwable + ")"));
            }
        }
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {}
}
