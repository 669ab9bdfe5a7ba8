package io.kubeloop.testing.crd;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.AlreadyExistsException;
import io.kubeloop.api.errors.ConflictException;
import io.kubeloop.api.yaml.KubeYaml;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.client.Wait;
import io.kubeloop.codegen.CrdGenerator;
import io.kubeloop.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Installs CustomResourceDefinitions and waits until the cluster serves them, as a test must before it
 * creates custom resources (the server answers 404 for a kind until its CRD is established).
 *
 * {@snippet :
 * List<String> names = CrdInstaller.of(client).install(CrdSource.file(Path.of("config/crd")));
 * }
 *
 * <p>Each CRD is created, or — when one of that name exists — updated to the spec given; failures a
 * healthy cluster has now and then (429, 5xx, a broken connection) are retried. Then the installer waits
 * until every CRD has the condition {@code Established=True}: within the timeout ({@value
 * #DEFAULT_TIMEOUT_SECONDS} s unless {@link #withTimeout set}) or a {@link CrdNotEstablishedException}
 * names the CRD and its conditions' reasons (a name conflict: {@code NamesAccepted=False}, reason
 * {@code ListKindConflict}). A CRD the server refuses fails at once with the server's error
 * ({@link io.kubeloop.api.errors.InvalidException} for a schema or rule it rejects).
 *
 * <p><b>Thread safety.</b> Immutable; {@link #install} may be called from several threads.
 */
public final class CrdInstaller {

    /** How long {@link #install} waits by default, in seconds. */
    public static final long DEFAULT_TIMEOUT_SECONDS = 30;

    private static final Duration POLL = Duration.ofMillis(20);
    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

    private final ResourceClient<DynamicObject> crds;
    private final Duration timeout;

    private CrdInstaller(ResourceClient<DynamicObject> crds, Duration timeout) {
        this.crds = crds;
        this.timeout = timeout;
    }

    /** An installer into the cluster of {@code client}. */
    public static CrdInstaller of(KubeClient client) {
        Objects.requireNonNull(client, "client");
        return new CrdInstaller(
                client.resource(CRDS, ResourceScope.CLUSTER, DynamicObject.class),
                Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS));
    }

    /** This installer waiting at most {@code timeout} (in all) for the CRDs to be created and established. */
    public CrdInstaller withTimeout(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeout);
        }
        return new CrdInstaller(crds, timeout);
    }

    /**
     * Installs the CRDs of {@code sources} and waits until all are established.
     *
     * @return the CRDs' names, in order
     * @throws CrdNotEstablishedException when one is not established in time
     * @throws IllegalArgumentException when a source is missing or holds something other than CRDs
     * @throws io.kubeloop.api.errors.ApiException when the server refuses one (at once)
     * @throws IllegalStateException when creating one keeps failing transiently until the timeout
     */
    public List<String> install(CrdSource... sources) {
        return install(List.of(sources));
    }

    /** As {@link #install(CrdSource...)}. */
    public List<String> install(List<CrdSource> sources) {
        long deadline = Ticker.system().nanoTime() + timeout.toNanos();
        List<ObjectNode> all = new ArrayList<>();
        for (CrdSource source : sources) {
            all.addAll(read(source));
        }
        List<String> names = new ArrayList<>();
        for (ObjectNode crd : all) {
            String name = crd.path("metadata").path("name").asString("");
            Wait.until("CRD " + name + " to be created", POLL, left(deadline), () -> createOrUpdate(crd));
            names.add(name);
        }
        for (String name : names) {
            awaitEstablished(name, left(deadline));
        }
        return List.copyOf(names);
    }

    /**
     * Waits until the CRD {@code name} is established.
     *
     * @throws CrdNotEstablishedException when it is not within this installer's timeout
     */
    public void awaitEstablished(String name) {
        awaitEstablished(name, timeout);
    }

    private void awaitEstablished(String name, Duration within) {
        boolean established = Wait.poll(
                "CRD " + name + " to be established", POLL, within, () -> conditionTrue(crds.get(name), "Established"));
        if (!established) {
            List<CrdNotEstablishedException.Condition> conditions = new ArrayList<>();
            for (JsonNode c : crds.get(name).node().path("status").path("conditions")) {
                conditions.add(new CrdNotEstablishedException.Condition(
                        c.path("type").asString(""),
                        c.path("status").asString(""),
                        c.path("reason").asString(""),
                        c.path("message").asString("")));
            }
            throw new CrdNotEstablishedException(name, timeout, conditions);
        }
    }

    private boolean createOrUpdate(ObjectNode crd) {
        String name = crd.path("metadata").path("name").asString();
        try {
            crds.create(DynamicObject.wrap(crd.deepCopy()));
            return true;
        } catch (AlreadyExistsException exists) {
            // installed before (or by an attempt whose answer was lost): bring it to this spec
        }
        for (int attempt = 0; ; attempt++) {
            ObjectNode current = crds.get(name).node().deepCopy();
            if (current.path("spec").equals(crd.path("spec"))) {
                return true;
            }
            current.set("spec", crd.get("spec").deepCopy());
            try {
                crds.update(DynamicObject.wrap(current));
                return true;
            } catch (ConflictException e) {
                if (attempt >= 4) {
                    throw e;
                }
            }
        }
    }

    private static boolean conditionTrue(DynamicObject crd, String type) {
        for (JsonNode c : crd.node().path("status").path("conditions")) {
            if (type.equals(c.path("type").asString())
                    && "True".equals(c.path("status").asString())) {
                return true;
            }
        }
        return false;
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - Ticker.system().nanoTime()));
    }

    // ---- reading sources ----

    static List<ObjectNode> read(CrdSource source) {
        return switch (source) {
            case CrdSource.File f -> readPath(f.path());
            case CrdSource.Resource r -> readResource(r);
            case CrdSource.Text t -> parse(t.text(), "the CRD text");
            case CrdSource.Generated g -> CrdGenerator.crds(g.types());
        };
    }

    private static List<ObjectNode> readPath(Path path) {
        try {
            if (Files.isDirectory(path)) {
                List<ObjectNode> out = new ArrayList<>();
                try (Stream<Path> files = Files.list(path)) {
                    for (Path f :
                            files.filter(CrdInstaller::isManifest).sorted().toList()) {
                        out.addAll(parse(Files.readString(f), f.toString()));
                    }
                }
                return out;
            }
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException("no CRD file or directory at " + path.toAbsolutePath());
            }
            return parse(Files.readString(path), path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("reading CRDs from " + path, e);
        }
    }

    private static boolean isManifest(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return Files.isRegularFile(file) && (name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json"));
    }

    private static List<ObjectNode> readResource(CrdSource.Resource r) {
        try (InputStream in = r.loader().getResourceAsStream(r.name())) {
            if (in == null) {
                throw new IllegalArgumentException("no class path resource " + r.name());
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "class path resource " + r.name());
        } catch (IOException e) {
            throw new UncheckedIOException("reading class path resource " + r.name(), e);
        }
    }

    private static List<ObjectNode> parse(String text, String where) {
        List<ObjectNode> out = new ArrayList<>();
        List<DynamicObject> documents = KubeYaml.readAll(text);
        for (int i = 0; i < documents.size(); i++) {
            ObjectNode doc = documents.get(i).node();
            String kind = doc.path("kind").asString("");
            String apiVersion = doc.path("apiVersion").asString("");
            if (!kind.equals("CustomResourceDefinition") || !apiVersion.equals("apiextensions.k8s.io/v1")) {
                throw new IllegalArgumentException(where + ": document " + (i + 1) + " is a " + apiVersion + " " + kind
                        + ", not an apiextensions.k8s.io/v1 CustomResourceDefinition");
            }
            out.add(doc);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(where + " holds no CustomResourceDefinition");
        }
        return out;
    }
}
