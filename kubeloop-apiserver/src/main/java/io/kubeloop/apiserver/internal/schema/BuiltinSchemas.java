package io.kubeloop.apiserver.internal.schema;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Structural schemas of the built-in kinds the embedded server serves: v1 Pod, Service, Endpoints,
 * ConfigMap, Secret, ServiceAccount, Namespace, Node, Event, PersistentVolumeClaim, PersistentVolume,
 * LimitRange, ResourceQuota, PodTemplate; apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet,
 * ControllerRevision; batch/v1 Job, CronJob; autoscaling/v2 HorizontalPodAutoscaler; discovery.k8s.io/v1
 * EndpointSlice; networking.k8s.io/v1 Ingress, IngressClass, NetworkPolicy; policy/v1 PodDisruptionBudget;
 * rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding; scheduling.k8s.io/v1
 * PriorityClass; storage.k8s.io/v1 StorageClass; admissionregistration.k8s.io/v1 webhook configurations and
 * ValidatingAdmissionPolicy (and bindings); coordination.k8s.io/v1 Lease; events.k8s.io/v1 Event;
 * apiextensions.k8s.io/v1 CustomResourceDefinition; and their {@code List} kinds.
 *
 * <p>They are read from {@value #DOCUMENT}, a Swagger 2.0 document beside this class: the definitions of
 * Kubernetes' own {@code swagger.json} of the release the server is ({@link KubernetesRelease}) that these
 * kinds reach, unchanged; a test checks that it is exactly that and rewrites it on request. Reading it is a
 * fraction of reading the whole {@code swagger.json}.
 *
 * <p>They give every field name, type, description, nested object, list, map, IntOrString, Quantity (a
 * string) and timestamp (a date-time string), plus the strategic-merge and list-type extensions. Use them
 * for {@linkplain StructuralSchema#prune unknown-field detection} (what {@code fieldValidation=Strict}
 * needs) and for the documents kubeloop writes for custom resources; the built-ins' validation and
 * defaulting are kubeloop code, as they are Go code upstream. The built-in group versions' OpenAPI
 * documents are upstream's own ({@link UpstreamOpenApi}).
 *
 * <p><b>Thread safety:</b> read once per JVM on first use, immutable afterwards.
 */
public final class BuiltinSchemas {

    /** The document the schemas are read from, a resource beside this class. */
    static final String DOCUMENT = "builtin-definitions.json";

    private final Map<GroupVersionKind, StructuralSchema> kinds;
    private final Map<String, StructuralSchema> definitions;
    private final StructuralSchema objectMeta;

    private BuiltinSchemas() {
        SwaggerDefinitions.Read read = SwaggerDefinitions.read(document());
        kinds = read.kinds();
        definitions = read.definitions();
        objectMeta = definitions.get(OpenApiSchemas.OBJECT_META);
        if (objectMeta == null) {
            throw new IllegalStateException(DOCUMENT + " defines no " + OpenApiSchemas.OBJECT_META);
        }
    }

    /** The parsed document. */
    static JsonNode document() {
        try (InputStream in = BuiltinSchemas.class.getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + DOCUMENT + " beside " + BuiltinSchemas.class);
            }
            return KubeJson.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DOCUMENT, e);
        }
    }

    private static final class Holder {
        private static final BuiltinSchemas INSTANCE = new BuiltinSchemas();
    }

    /** The shared instance (built on first use). */
    public static BuiltinSchemas standard() {
        return Holder.INSTANCE;
    }

    /** The schema of a built-in kind (or its List kind), if kubeloop serves it. */
    public static Optional<StructuralSchema> forKind(GroupVersionKind gvk) {
        return Optional.ofNullable(standard().kinds.get(gvk));
    }

    /** Every built-in kind with a schema, List kinds included, in definition-name order. */
    public Set<GroupVersionKind> kinds() {
        return kinds.keySet();
    }

    /**
     * Every named definition reachable from the built-in kinds, by Go definition name (e.g.
     * {@code io.k8s.api.core.v1.PodSpec}, {@code io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}).
     */
    public Map<String, StructuralSchema> definitions() {
        return definitions;
    }

    /** ObjectMeta's schema, which pruning applies to the metadata of every resource. */
    public static StructuralSchema objectMeta() {
        return standard().objectMeta;
    }
}
