package io.kubeloop.bench.race.floor;

import io.kubeloop.api.json.KubeJson;
import java.io.IOException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * What the floor operator keeps of a Foo or a Deployment: only the fields it reconciles by, read with
 * Jackson's streaming parser from a watch event's bytes, everything else skipped unread.
 *
 * @param namespace {@code metadata.namespace}
 * @param name {@code metadata.name}
 * @param uid {@code metadata.uid}
 * @param resourceVersion {@code metadata.resourceVersion} as a number (the embedded server's are)
 * @param ownerKind the controller owner's kind (Deployments), or null
 * @param ownerName the controller owner's name, or null
 * @param ownerUid the controller owner's uid, or null
 * @param deploymentName a Foo's {@code spec.deploymentName}, or null
 * @param replicas {@code spec.replicas}, or -1 when absent
 * @param available {@code status.availableReplicas}, 0 when absent
 */
record Observed(
        String namespace,
        String name,
        String uid,
        long resourceVersion,
        String ownerKind,
        String ownerName,
        String ownerUid,
        String deploymentName,
        int replicas,
        int available) {

    /** A watch event: its type, its object and whether it is the bookmark that ends the initial events. */
    record Event(String type, Observed object, boolean initialEventsEnd) {}

    /** The watch event in {@code b[from, from + length)}. */
    static Event event(byte[] b, int from, int length) throws IOException {
        try (JsonParser p = KubeJson.mapper().createParser(b, from, length)) {
            p.nextToken();
            String type = null;
            Reading object = null;
            for (String field = p.nextName(); field != null; field = p.nextName()) {
                p.nextToken();
                if (field.equals("type")) {
                    type = p.getString();
                } else if (field.equals("object")) {
                    object = new Reading();
                    object.object(p);
                } else {
                    p.skipChildren();
                }
            }
            if (type == null || object == null) {
                throw new IOException("not a watch event");
            }
            return new Event(type, object.observed(), object.initialEventsEnd);
        }
    }

    /** The object in a whole response body (a create's or patch's answer). */
    static Observed object(byte[] body) throws IOException {
        try (JsonParser p = KubeJson.mapper().createParser(body)) {
            p.nextToken();
            Reading r = new Reading();
            r.object(p);
            return r.observed();
        }
    }

    /** The fields as they are read. */
    private static final class Reading {
        String namespace;
        String name;
        String uid;
        long resourceVersion;
        String ownerKind;
        String ownerName;
        String ownerUid;
        String deploymentName;
        int replicas = -1;
        int available;
        boolean initialEventsEnd;

        Observed observed() {
            return new Observed(
                    namespace,
                    name,
                    uid,
                    resourceVersion,
                    ownerKind,
                    ownerName,
                    ownerUid,
                    deploymentName,
                    replicas,
                    available);
        }

        void object(JsonParser p) {
            for (String field = p.nextName(); field != null; field = p.nextName()) {
                JsonToken t = p.nextToken();
                switch (field) {
                    case "metadata" -> metadata(p);
                    case "spec" -> {
                        for (String f = p.nextName(); f != null; f = p.nextName()) {
                            p.nextToken();
                            if (f.equals("replicas")) {
                                replicas = p.getIntValue();
                            } else if (f.equals("deploymentName")) {
                                deploymentName = p.getString();
                            } else {
                                p.skipChildren();
                            }
                        }
                    }
                    case "status" -> {
                        for (String f = p.nextName(); f != null; f = p.nextName()) {
                            p.nextToken();
                            if (f.equals("availableReplicas")) {
                                available = p.getIntValue();
                            } else {
                                p.skipChildren();
                            }
                        }
                    }
                    default -> {
                        if (t.isStructStart()) {
                            p.skipChildren();
                        }
                    }
                }
            }
        }

        private void metadata(JsonParser p) {
            for (String f = p.nextName(); f != null; f = p.nextName()) {
                p.nextToken();
                switch (f) {
                    case "name" -> name = p.getString();
                    case "namespace" -> namespace = p.getString();
                    case "uid" -> uid = p.getString();
                    case "resourceVersion" -> resourceVersion = Long.parseLong(p.getString());
                    case "annotations" -> {
                        for (String a = p.nextName(); a != null; a = p.nextName()) {
                            p.nextToken();
                            if (a.equals("k8s.io/initial-events-end")) {
                                initialEventsEnd = "true".equals(p.getString());
                            }
                        }
                    }
                    case "ownerReferences" -> {
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            owner(p);
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        }

        private void owner(JsonParser p) {
            String kind = null;
            String ownerName = null;
            String ownerUid = null;
            boolean controller = false;
            for (String f = p.nextName(); f != null; f = p.nextName()) {
                p.nextToken();
                switch (f) {
                    case "kind" -> kind = p.getString();
                    case "name" -> ownerName = p.getString();
                    case "uid" -> ownerUid = p.getString();
                    case "controller" -> controller = p.getBooleanValue();
                    default -> p.skipChildren();
                }
            }
            if (controller) {
                this.ownerKind = kind;
                this.ownerName = ownerName;
                this.ownerUid = ownerUid;
            }
        }
    }
}
