package io.kubeloop.apiserver.internal.printers;

import static io.kubeloop.apiserver.internal.printers.BuiltinColumns.age;
import static io.kubeloop.apiserver.internal.printers.BuiltinColumns.col;
import static io.kubeloop.apiserver.internal.printers.BuiltinColumns.orNone;
import static io.kubeloop.apiserver.internal.printers.BuiltinColumns.selector;
import static io.kubeloop.apiserver.internal.printers.BuiltinColumns.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The table columns (after Name) of the networking and storage kinds, as kube-apiserver's printers make them:
 * Endpoints, EndpointSlices, Ingresses, IngressClasses, NetworkPolicies, PersistentVolumeClaims,
 * PersistentVolumes and StorageClasses.
 *
 * <p>Stateless and thread-safe.
 */
final class NetworkStorageColumns {

    private static final int MAX_SHOWN = 3;

    private NetworkStorageColumns() {}

    static Optional<List<PrinterColumn>> forResource(String plural) {
        return Optional.ofNullable(
                switch (plural) {
                    case "endpoints" -> List.of(col("Endpoints", 0, NetworkStorageColumns::endpoints), age());
                    case "endpointslices" ->
                        List.of(
                                col("AddressType", 0, o -> text(o, ".addressType")),
                                col("Ports", 0, NetworkStorageColumns::slicePorts),
                                col("Endpoints", 0, NetworkStorageColumns::sliceEndpoints),
                                age());
                    case "ingresses" ->
                        List.of(
                                col("Class", 0, o -> orNone(text(o, ".spec.ingressClassName"))),
                                col("Hosts", 0, NetworkStorageColumns::hosts),
                                col("Address", 0, NetworkStorageColumns::loadBalancer),
                                col("Ports", 0, o -> o.path("spec").path("tls").isEmpty() ? "80" : "80, 443"),
                                age());
                    case "ingressclasses" ->
                        List.of(
                                col("Controller", 0, o -> text(o, ".spec.controller")),
                                col("Parameters", 0, o -> {
                                    JsonNode p = o.path("spec").path("parameters");
                                    return p.isObject()
                                            ? p.path("kind").asString("") + "/"
                                                    + p.path("name").asString("")
                                            : "<none>";
                                }),
                                age());
                    case "networkpolicies" -> List.of(col("Pod-Selector", 0, o -> podSelector(o)), age());
                    case "persistentvolumeclaims" ->
                        List.of(
                                col("Status", 0, o -> text(o, ".status.phase")),
                                col("Volume", 0, o -> text(o, ".spec.volumeName")),
                                col("Capacity", 0, o -> text(o, ".status.capacity.storage")),
                                col(
                                        "Access Modes",
                                        0,
                                        o -> accessModes(o.path("status").path("accessModes"))),
                                col("StorageClass", 0, o -> text(o, ".spec.storageClassName")),
                                col("VolumeAttributesClass", 0, o -> unset(text(o, ".spec.volumeAttributesClassName"))),
                                age(),
                                col("VolumeMode", 1, o -> text(o, ".spec.volumeMode")));
                    case "persistentvolumes" ->
                        List.of(
                                col("Capacity", 0, o -> text(o, ".spec.capacity.storage")),
                                col(
                                        "Access Modes",
                                        0,
                                        o -> accessModes(o.path("spec").path("accessModes"))),
                                col("Reclaim Policy", 0, o -> text(o, ".spec.persistentVolumeReclaimPolicy")),
                                col("Status", 0, o -> text(o, ".status.phase")),
                                col("Claim", 0, o -> {
                                    JsonNode c = o.path("spec").path("claimRef");
                                    return c.isObject()
                                            ? c.path("namespace").asString("") + "/"
                                                    + c.path("name").asString("")
                                            : "";
                                }),
                                col("StorageClass", 0, o -> text(o, ".spec.storageClassName")),
                                col("VolumeAttributesClass", 0, o -> unset(text(o, ".spec.volumeAttributesClassName"))),
                                col("Reason", 0, o -> text(o, ".status.reason")),
                                age(),
                                col("VolumeMode", 1, o -> text(o, ".spec.volumeMode")));
                    case "storageclasses" ->
                        List.of(
                                col("Provisioner", 0, o -> text(o, ".provisioner")),
                                col("ReclaimPolicy", 0, o -> orDefault(text(o, ".reclaimPolicy"), "Delete")),
                                col("VolumeBindingMode", 0, o -> orDefault(text(o, ".volumeBindingMode"), "Immediate")),
                                col(
                                        "AllowVolumeExpansion",
                                        0,
                                        o -> Boolean.toString(
                                                o.path("allowVolumeExpansion").asBoolean(false))),
                                age());
                    default -> null;
                });
    }

    private static String orDefault(String s, String fallback) {
        return s.isEmpty() ? fallback : s;
    }

    private static String unset(String s) {
        return s.isEmpty() ? "<unset>" : s;
    }

    private static String podSelector(ObjectNode o) {
        String s = selector(o, ".spec.podSelector");
        return s.equals("<none>") ? "<none>" : s;
    }

    /** {@code RWO,ROX} for {@code [ReadWriteOnce, ReadOnlyMany]}, as kubectl abbreviates access modes. */
    static String accessModes(JsonNode modes) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : modes) {
            String abbreviated = switch (m.asString("")) {
                case "ReadWriteOnce" -> "RWO";
                case "ReadOnlyMany" -> "ROX";
                case "ReadWriteMany" -> "RWX";
                case "ReadWriteOncePod" -> "RWOP";
                default -> "";
            };
            if (!abbreviated.isEmpty() && !out.contains(abbreviated)) {
                out.add(abbreviated);
            }
        }
        return String.join(",", out);
    }

    /** Up to three of {@code items}, then {@code + N more...}; {@code <none>} when empty. */
    private static String shortened(List<String> items) {
        if (items.isEmpty()) {
            return "<none>";
        }
        if (items.size() <= MAX_SHOWN) {
            return String.join(",", items);
        }
        return String.join(",", items.subList(0, MAX_SHOWN)) + " + " + (items.size() - MAX_SHOWN) + " more...";
    }

    /** The ENDPOINTS cell of an Endpoints object: {@code ip:port} per ready address and port. */
    private static String endpoints(ObjectNode o) {
        List<String> out = new ArrayList<>();
        for (JsonNode subset : o.path("subsets")) {
            for (JsonNode address : subset.path("addresses")) {
                if (subset.path("ports").isEmpty()) {
                    out.add(address.path("ip").asString(""));
                }
                for (JsonNode port : subset.path("ports")) {
                    out.add(address.path("ip").asString("") + ":"
                            + port.path("port").asInt());
                }
            }
        }
        return shortened(out);
    }

    private static String slicePorts(ObjectNode o) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : o.path("ports")) {
            out.add(p.path("port").isNumber() ? Integer.toString(p.path("port").asInt()) : "<unset>");
        }
        return out.isEmpty() ? "<unset>" : String.join(",", out);
    }

    private static String sliceEndpoints(ObjectNode o) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : o.path("endpoints")) {
            for (JsonNode a : e.path("addresses")) {
                out.add(a.asString(""));
            }
        }
        return shortened(out);
    }

    private static String hosts(ObjectNode o) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : o.path("spec").path("rules")) {
            String host = r.path("host").asString("");
            out.add(host.isEmpty() ? "*" : host);
        }
        return out.isEmpty() ? "*" : shortened(out);
    }

    private static String loadBalancer(ObjectNode o) {
        List<String> out = new ArrayList<>();
        for (JsonNode i : o.path("status").path("loadBalancer").path("ingress")) {
            out.add(i.has("ip") ? i.path("ip").asString("") : i.path("hostname").asString(""));
        }
        return String.join(",", out);
    }
}
