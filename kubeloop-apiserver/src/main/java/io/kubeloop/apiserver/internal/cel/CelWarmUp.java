package io.kubeloop.apiserver.internal.cel;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Readies CEL in the background while a server starts: compiles and evaluates a few rules of the kinds
 * CRDs carry, so that the first CRD with validation rules does not pay for loading and initialising the
 * CEL parser, checker, Kubernetes' libraries and the interpreter (a third of a second of CPU in a fresh
 * JVM, more than compiling every rule of a large CRD once they are ready). Spring Boot's background
 * pre-initializer does the same for its own first-use costs.
 *
 * <p>The work runs on one low-priority daemon thread and touches no state of any server: it only loads
 * and initialises classes and gives the JIT compiler its first profile. A failure is ignored — the
 * first real compilation then pays as it would have — and nothing waits for the thread.
 *
 * <p>Stateless; thread-safe.
 */
public final class CelWarmUp {

    /** The warm-up schema: an object whose fields carry rules using the common parts of the language. */
    private static final String SCHEMA = """
            {"type":"object","properties":{
              "metadata":{"type":"object"},
              "spec":{"type":"object",
                "x-kubernetes-validations":[
                  {"rule":"!has(self.name) || self.name.size() <= 63",
                   "messageExpression":"'name ' + self.name + ' is too long'"},
                  {"rule":"self.ports.all(p, p.port > 0 && p.port < 65536)"},
                  {"rule":"self.ports.exists_one(p, p.name == 'http') || size(self.ports) == 0"},
                  {"rule":"self.labels.all(k, k.matches('^[a-z0-9.-]+$') && self.labels[k] != '')"},
                  {"rule":"oldSelf.name == self.name", "message":"name is immutable"}],
                "properties":{
                  "name":{"type":"string","maxLength":253},
                  "host":{"type":"string","maxLength":253,
                    "x-kubernetes-validations":[
                      {"rule":"self.startsWith('*.') ? self.substring(2).contains('.') : !self.endsWith('.')"}]},
                  "labels":{"type":"object","maxProperties":16,
                    "additionalProperties":{"type":"string","maxLength":63}},
                  "ports":{"type":"array","maxItems":16,"x-kubernetes-list-type":"map",
                    "x-kubernetes-list-map-keys":["name"],
                    "items":{"type":"object","required":["name"],"properties":{
                      "name":{"type":"string","maxLength":15},
                      "port":{"type":"integer","format":"int32"}},
                      "x-kubernetes-validations":[
                        {"rule":"self.name in ['http', 'https'] ? self.port != 0 : true",
                         "reason":"FieldValueInvalid"}]}}}}}}
            """;

    private static final String OLD = """
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},
             "spec":{"name":"w","host":"*.example.com","labels":{"app":"w"},
               "ports":[{"name":"http","port":80}]}}
            """;

    private static final String NEW = """
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},
             "spec":{"name":"w","host":"*.example.com","labels":{"app":"w","tier":"web"},
               "ports":[{"name":"http","port":8080},{"name":"https","port":8443}]}}
            """;

    private CelWarmUp() {}

    /** Starts the warm-up on a daemon thread of minimum priority and returns at once. */
    public static void startInBackground() {
        Thread t = new Thread(CelWarmUp::run, "kubeloop-cel-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    /**
     * Compiles the warm-up rules and evaluates them on a create and an update.
     *
     * @return the causes the evaluation found: none, when CEL works as the rules expect
     */
    static List<String> run() {
        try {
            JsonNode schema = KubeJson.mapper().readTree(SCHEMA);
            CelRules.Compilation c = CelRules.compile(StructuralSchema.of(schema), "openAPIV3Schema");
            if (!c.errors().isEmpty()) {
                return c.errors().stream()
                        .map(e -> e.field() + ": " + e.message())
                        .toList();
            }
            JsonNode old = KubeJson.mapper().readTree(OLD);
            JsonNode updated = KubeJson.mapper().readTree(NEW);
            List<String> onCreate = c.rules().validate(old, null).stream()
                    .map(e -> e.field() + ": " + e.message())
                    .toList();
            List<String> onUpdate = c.rules().validate(updated, old).stream()
                    .map(e -> e.field() + ": " + e.message())
                    .toList();
            return onCreate.isEmpty() ? onUpdate : onCreate;
        } catch (RuntimeException e) {
            return List.of("warm-up failed: " + e);
        }
    }
}
