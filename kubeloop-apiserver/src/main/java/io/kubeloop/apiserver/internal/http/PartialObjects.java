package io.kubeloop.apiserver.internal.http;

import io.kubeloop.api.errors.NotAcceptableException;
import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * {@code meta.k8s.io} PartialObjectMetadata rendering: an object reduced to
 * {@code {"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/<v>","metadata":{…}}} with its whole
 * metadata (managedFields included), as kube-apiserver answers {@code as=PartialObjectMetadata} and
 * fills each item of {@code as=PartialObjectMetadataList}. The metadata is copied byte for byte out of
 * the object's JSON, found by a streaming scan of its top-level fields; no tree is built.
 *
 * <p>Also the 406 answers kube-apiserver gives when the asked form does not fit the answer (one object
 * as a list, a list as one object), naming the Go type of the answer as it does.
 *
 * <p>Stateless and thread-safe.
 */
final class PartialObjects {

    private static final byte[] EMPTY_METADATA = {'{', '}'};

    private PartialObjects() {}

    /** {@code objectJson}, a JSON object, as PartialObjectMetadata of {@code apiVersion} ({@code meta.k8s.io/v1}…). */
    static byte[] of(String apiVersion, byte[] objectJson) {
        byte[] head = ("{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"" + apiVersion + "\",\"metadata\":")
                .getBytes(StandardCharsets.UTF_8);
        byte[] meta = metadata(objectJson);
        byte[] out = Arrays.copyOf(head, head.length + meta.length + 1);
        System.arraycopy(meta, 0, out, head.length, meta.length);
        out[out.length - 1] = '}';
        return out;
    }

    /**
     * A bookmark's object as PartialObjectMetadata: metadata with just {@code resourceVersion}, and the
     * {@code k8s.io/initial-events-end} annotation when it ends the initial events.
     */
    static String bookmark(String apiVersion, long resourceVersion, boolean initialEventsEnd) {
        return "{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"" + apiVersion
                + "\",\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\""
                + (initialEventsEnd ? ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}" : "") + "}}";
    }

    /** The raw bytes of the top-level {@code metadata} object of {@code json}, or {@code {}} when it has none. */
    static byte[] metadata(byte[] json) {
        try (JsonParser p = KubeJson.mapper().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return EMPTY_METADATA;
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                boolean metadata = p.currentName().equals("metadata");
                JsonToken value = p.nextToken();
                if (metadata && value == JsonToken.START_OBJECT) {
                    long start = p.currentTokenLocation().getByteOffset();
                    p.skipChildren();
                    long end = p.currentTokenLocation().getByteOffset() + 1;
                    if (start < 0 || end <= start) {
                        return metadataByTree(json);
                    }
                    return Arrays.copyOfRange(json, (int) start, (int) end);
                }
                p.skipChildren();
            }
        }
        return EMPTY_METADATA;
    }

    /** The metadata re-serialized from a tree, for a parser that reports no byte offsets. */
    private static byte[] metadataByTree(byte[] json) {
        var meta = KubeJson.mapper().readTree(json).path("metadata");
        return meta.isObject() ? KubeJson.mapper().writeValueAsBytes(meta) : EMPTY_METADATA;
    }

    /** 406: PartialObjectMetadataList was asked but the answer is one object of {@code goType}. */
    static NotAcceptableException notAList(String goType) {
        return notAcceptable(
                "you requested PartialObjectMetadataList, but the requested object is not a list (" + goType + ")");
    }

    /** 406: PartialObjectMetadata was asked but the answer is a list of {@code def}'s objects. */
    static NotAcceptableException aList(ResourceDefinition def) {
        return notAcceptable(
                "you requested PartialObjectMetadata, but the requested object is a list (" + goType(def, true) + ")");
    }

    private static NotAcceptableException notAcceptable(String message) {
        return new NotAcceptableException(Status.failure(406, "NotAcceptable", message));
    }

    /**
     * The Go type kube-apiserver names for an answer of {@code def}: the internal type of a built-in
     * resource ({@code *core.ConfigMap}, {@code *apps.DeploymentList}), {@code *unstructured.Unstructured}
     * or {@code *unstructured.UnstructuredList} for a custom resource.
     */
    static String goType(ResourceDefinition def, boolean list) {
        if (def.custom()) {
            return list ? "*unstructured.UnstructuredList" : "*unstructured.Unstructured";
        }
        return "*" + internalPackage(def.group()) + "." + def.kind() + (list ? "List" : "");
    }

    private static String internalPackage(String group) {
        return switch (group) {
            case "", "events.k8s.io" -> "core";
            case "internal.apiserver.k8s.io" -> "apiserverinternal";
            default -> {
                int dot = group.indexOf('.');
                yield dot < 0 ? group : group.substring(0, dot);
            }
        };
    }
}
