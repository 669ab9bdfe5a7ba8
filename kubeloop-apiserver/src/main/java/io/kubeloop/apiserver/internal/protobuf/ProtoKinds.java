package io.kubeloop.apiserver.internal.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The protobuf message of each built-in kind, from the descriptors of Kubernetes' {@code generated.proto}
 * files as kubernetes-client/java's {@code client-java-proto} 25 (Kubernetes 1.33) ships them: meta/v1, core/v1
 * and the GA groups apps, batch, autoscaling, policy, rbac, networking, storage, scheduling, authentication,
 * authorization, certificates and admissionregistration. That artifact lacks coordination.k8s.io, events.k8s.io
 * and apiextensions.k8s.io v1, so Lease, events.k8s.io Event and CustomResourceDefinition have no message here.
 *
 * <p>A kind {@code K} of {@code group/version} is the message {@code k8s.io.api.<first label of group>.<version>.K}
 * ({@code core} for the empty group). {@code meta.k8s.io} option kinds such as DeleteOptions are registered in
 * every group version, so they are found by kind whatever the apiVersion.
 *
 * <p>Thread-safe: the table is built once, on first use (loading the descriptors takes a moment), then read only.
 */
final class ProtoKinds {

    private static final List<String> META_KINDS = List.of(
            "DeleteOptions",
            "CreateOptions",
            "UpdateOptions",
            "PatchOptions",
            "GetOptions",
            "ListOptions",
            "Status",
            "WatchEvent");

    private ProtoKinds() {}

    /** Descriptors by full message name, loaded on first use. */
    private static final class Table {
        static final Map<String, Descriptor> BY_NAME = load();

        private static Map<String, Descriptor> load() {
            Map<String, Descriptor> m = new HashMap<>();
            for (FileDescriptor f : List.of(
                    Meta.getDescriptor(),
                    V1.getDescriptor(),
                    V1Apps.getDescriptor(),
                    V1Batch.getDescriptor(),
                    V1Autoscaling.getDescriptor(),
                    V1Policy.getDescriptor(),
                    V1Rbac.getDescriptor(),
                    V1Networking.getDescriptor(),
                    V1Storage.getDescriptor(),
                    V1Scheduling.getDescriptor(),
                    V1Authentication.getDescriptor(),
                    V1Authorization.getDescriptor(),
                    V1Certificates.getDescriptor(),
                    V1Admissionregistration.getDescriptor())) {
                for (Descriptor d : f.getMessageTypes()) {
                    m.put(d.getFullName(), d);
                }
            }
            return Map.copyOf(m);
        }
    }

    /** The message of {@code apiVersion}/{@code kind}, if this table has it. */
    static Optional<Descriptor> message(String apiVersion, String kind) {
        if (META_KINDS.contains(kind)) {
            return Optional.ofNullable(Table.BY_NAME.get("k8s.io.apimachinery.pkg.apis.meta.v1." + kind));
        }
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        if (version.isEmpty() || kind.isEmpty()) {
            return Optional.empty();
        }
        String pkg = group.isEmpty() ? "core" : group.split("\\.", 2)[0];
        if (!group.isEmpty() && !group.equals(pkg) && !group.endsWith(".k8s.io")) {
            return Optional.empty(); // a custom group such as example.com
        }
        return Optional.ofNullable(Table.BY_NAME.get("k8s.io.api." + pkg + "." + version + "." + kind));
    }
}
