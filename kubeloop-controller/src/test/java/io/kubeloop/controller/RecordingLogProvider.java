package io.kubeloop.controller;

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
 * The SLF4J binding of this module's tests (found through {@code META-INF/services}): it writes
 * nothing, and records every event, of every level, from every logger and thread, while a
 * {@link Capture} is open ({@link #capture()}). Without an open capture, loggers say every level is
 * off, so logging costs nothing.
 *
 * <p>Thread-safe.
 */
public final class RecordingLogProvider implements SLF4JServiceProvider {

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
            return on();
        }

        @Override
        public boolean isWarnEnabled() {
            return on();
        }

        @Override
        public boolean isErrorEnabled() {
            return on();
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
