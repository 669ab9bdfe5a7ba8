package io.kubeloop.apiserver.internal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.GroupVersionKind;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.BuiltinSchemas;
import io.kubeloop.apiserver.internal.schema.ServedKind;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * kubectl 1.27/1.28 parse the protobuf {@code /openapi/v2} with kube-openapi's
 * {@code proto.NewOpenAPIData}, which rejects the whole document (kubectl then fails every
 * command) when any definition breaks its rules. These tests apply those rules to the decoded
 * protobuf of every built-in kind kubeloop has a schema for and of a CRD using every structural
 * feature.
 */
class KubeOpenApiV2RulesTest {

    private static final Set<String> PRIMITIVES = Set.of("string", "number", "integer", "boolean");

    /** Every violation of kube-openapi's schema rules, as {@code definition.path: problem}. */
    private static List<String> violations(byte[] protobuf) {
        ProtoMessage definitions = ProtoMessage.parse(protobuf).message(9);
        Set<String> names = new HashSet<>(definitions.names(1));
        List<String> out = new ArrayList<>();
        for (ProtoMessage named : definitions.messages(1)) {
            check(named.message(2), named.string(1), names, out);
        }
        return out;
    }

    private static void check(ProtoMessage s, String path, Set<String> names, List<String> out) {
        List<String> types = s.has(22) ? s.message(22).strings(1) : List.of();
        if (!s.string(1).isEmpty()) {
            String ref = s.string(1);
            if (s.has(25) && !s.message(25).messages(1).isEmpty()) {
                out.add(path + ": unallowed embedded type definition");
            }
            if (!types.isEmpty()) {
                out.add(path + ": definition reference can't have a type");
            }
            if (!ref.startsWith("#/definitions/") || !names.contains(ref.substring("#/definitions/".length()))) {
                out.add(path + ": unknown model in reference: " + ref);
            }
            return;
        }
        if (types.size() > 1) {
            out.add(path + ": definitions with multiple types aren't supported");
            return;
        }
        String type = types.isEmpty() ? "" : types.getFirst();
        if (type.equals("array")) {
            List<ProtoMessage> items = s.has(23) ? s.message(23).messages(1) : List.of();
            if (items.size() != 1) {
                out.add(path + ": array should have exactly one sub-item");
            } else {
                check(items.getFirst(), path + "[]", names, out);
            }
        } else if (type.equals("object") || (type.isEmpty() && s.has(25))) {
            if (s.has(25)) {
                for (ProtoMessage p : s.message(25).messages(1)) {
                    check(p.message(2), path + "." + p.string(1), names, out);
                }
            } else if (s.has(21) && s.message(21).has(1)) {
                check(s.message(21).message(1), path + "{}", names, out);
            }
        } else if (!type.isEmpty() && !PRIMITIVES.contains(type)) {
            out.add(path + ": Unknown primitive type: " + type);
        }
    }

    @Test
    void everyBuiltinKindsDefinitionsFollowKubeOpenApisRules() {
        List<ServedKind> kinds = new ArrayList<>();
        for (GroupVersionKind gvk : BuiltinSchemas.standard().kinds()) {
            if (!gvk.kind().endsWith("List")) {
                kinds.add(ServedKind.builtin(gvk, gvk.kind().toLowerCase(Locale.ROOT) + "s", true, List.of("status")));
            }
        }
        assertThat(kinds).hasSizeGreaterThan(10);
        byte[] protobuf = OpenApiV2.protobuf(kinds);
        assertThat(violations(protobuf)).isEmpty();
        assertThat(ProtoMessage.parse(protobuf).message(9).names(1)).hasSizeGreaterThan(kinds.size());
    }

    @Test
    void aCustomResourceUsingEveryStructuralFeatureFollowsKubeOpenApisRules() {
        StructuralSchema schema = StructuralSchema.of(KubeJson.mapper().readTree("""
                {"type":"object","properties":{"spec":{"type":"object","properties":{
                  "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
                  "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
                  "labels":{"type":"object","additionalProperties":{"type":"string"}},
                  "opt":{"type":"string","nullable":true,"default":"x","enum":["x","y"]},
                  "list":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
                    "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}},
                  "embedded":{"type":"object","x-kubernetes-embedded-resource":true,
                    "x-kubernetes-preserve-unknown-fields":true,"properties":{"kind":{"type":"string"}}},
                  "matrix":{"type":"array","items":{"type":"array","items":{"type":"number"}}}}}}}"""));
        GroupVersionKind gvk = new GroupVersionKind("example.com", "v1", "Widget");
        byte[] protobuf = OpenApiV2.protobuf(List.of(ServedKind.custom(gvk, "widgets", false, schema, List.of())));
        assertThat(violations(protobuf)).isEmpty();
        ProtoMessage widget = ProtoMessage.parse(protobuf).message(9).named(1, "com.example.v1.Widget");
        ProtoMessage opt = widget.message(25).named(1, "spec").message(25).named(1, "opt");
        assertThat(opt.message(5).string(2)).isEqualTo("x\n");
        assertThat(opt.messages(20)).extracting(a -> a.string(2)).containsExactly("x\n", "\"y\"\n");
    }

    @Test
    void theRulesCatchABrokenDocument() {
        var swagger = (ObjectNode) KubeJson.mapper().readTree("""
                {"swagger":"2.0","definitions":{"a":{"type":"object","properties":{
                  "l":{"type":"array"},"r":{"$ref":"#/definitions/missing"},"t":{"type":"null"}}}}}""");
        assertThat(violations(OpenApiV2.protobuf(swagger)))
                .containsExactlyInAnyOrder(
                        "a.l: array should have exactly one sub-item",
                        "a.r: unknown model in reference: #/definitions/missing",
                        "a.t: Unknown primitive type: null");
    }
}
