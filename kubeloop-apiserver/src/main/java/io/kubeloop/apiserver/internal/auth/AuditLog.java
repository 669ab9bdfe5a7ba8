package io.kubeloop.apiserver.internal.auth;

import io.kubeloop.api.json.KubeJson;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An audit log as kube-apiserver writes it with {@code --audit-log-path} at level {@code Metadata}: one JSON
 * line per request, an {@code audit.k8s.io/v1} {@code Event} at stage {@code ResponseComplete} with the
 * request's user (and impersonated user), verb, URI, object reference, source address, user agent, response
 * code and timestamps. Lines are appended and flushed one at a time, so a reader (a test, {@code tail -f})
 * sees each request once it is answered.
 *
 * <p><b>Thread safety.</b> Thread-safe: lines are written whole under a lock, to a stream that an interrupted
 * writer cannot close (an interrupt would close a file channel for every later writer). A write that fails is
 * logged and the request goes on; an entry recorded after {@link #close()} (a request still answered while the
 * server stops) is dropped, so the file ends with whole lines.
 */
public final class AuditLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    /** One answered request. */
    public record Entry(
            RequestAttributes attributes,
            UserInfo authenticated,
            String method,
            String requestUri,
            String sourceIp,
            String userAgent,
            int code,
            Instant received,
            Instant completed) {}

    /** Go's RFC 3339 with microseconds, in UTC, as audit events carry it. */
    private static final DateTimeFormatter MICROS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private final Path file;
    /** Guarded by {@link #lock}. */
    private final OutputStream out;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}; set once by {@link #close()}. */
    private boolean closed;

    private AuditLog(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    /**
     * Opens {@code file} for appending, creating it (and its directory) when missing.
     *
     * @throws UncheckedIOException when it cannot be opened
     */
    public static AuditLog open(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            // a FileOutputStream, not Files.newOutputStream: its channel would be closed by a writer's interrupt
            return new AuditLog(file, new FileOutputStream(file.toFile(), true));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the audit log " + file + ": " + e.getMessage(), e);
        }
    }

    /** Appends one event line; after {@link #close()}, does nothing. */
    public void record(Entry e) {
        byte[] line = (KubeJson.mapper().writeValueAsString(event(e)) + "\n").getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            if (closed) {
                return;
            }
            out.write(line);
            out.flush();
        } catch (IOException ex) {
            LOG.warn("cannot write to the audit log {}: {}", file, ex.toString());
        } finally {
            lock.unlock();
        }
    }

    static ObjectNode event(Entry e) {
        RequestAttributes a = e.attributes();
        ObjectNode n = KubeJson.mapper().createObjectNode();
        n.put("kind", "Event").put("apiVersion", "audit.k8s.io/v1").put("level", "Metadata");
        n.put("auditID", UUID.randomUUID().toString());
        n.put("stage", "ResponseComplete");
        n.put("requestURI", e.requestUri());
        n.put("verb", a.verb());
        user(n.putObject("user"), e.authenticated());
        if (!e.authenticated().equals(a.user())) {
            user(n.putObject("impersonatedUser"), a.user());
        }
        n.putArray("sourceIPs").add(e.sourceIp());
        if (e.userAgent() != null) {
            n.put("userAgent", e.userAgent());
        }
        if (a.resourceRequest()) {
            ObjectNode ref = n.putObject("objectRef");
            ref.put("resource", a.resource());
            if (!a.namespace().isEmpty()) {
                ref.put("namespace", a.namespace());
            }
            if (!a.name().isEmpty()) {
                ref.put("name", a.name());
            }
            ref.put("apiGroup", a.apiGroup());
            ref.put("apiVersion", a.apiVersion());
            if (!a.subresource().isEmpty()) {
                ref.put("subresource", a.subresource());
            }
        }
        ObjectNode status = n.putObject("responseStatus");
        status.putObject("metadata");
        status.put("code", e.code());
        n.put("requestReceivedTimestamp", MICROS.format(e.received()));
        n.put("stageTimestamp", MICROS.format(e.completed()));
        return n;
    }

    private static void user(ObjectNode n, UserInfo u) {
        n.put("username", u.name());
        if (!u.uid().isEmpty()) {
            n.put("uid", u.uid());
        }
        ArrayNode groups = n.putArray("groups");
        u.groups().forEach(groups::add);
        if (!u.extra().isEmpty()) {
            ObjectNode extra = n.putObject("extra");
            u.extra().forEach((k, v) -> {
                ArrayNode values = extra.putArray(k);
                v.forEach(values::add);
            });
        }
    }

    /** Closes the file; entries recorded later are dropped. Idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            out.close();
        } catch (IOException e) {
            LOG.warn("cannot close the audit log {}: {}", file, e.toString());
        } finally {
            lock.unlock();
        }
    }
}
