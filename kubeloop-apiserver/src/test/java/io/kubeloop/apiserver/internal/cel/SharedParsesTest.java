package io.kubeloop.apiserver.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A rule text that recurs — at several nodes of a schema, or in schemas compiled one after another
 * through the same {@link ParsedExpressions} — compiles exactly as if it were written once: each
 * occurrence is checked against the types of its own node, errors are reported at each occurrence's own
 * path, and a parse error recurs in every schema that has the text.
 */
class SharedParsesTest {

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text.replace('\'', '"'));
    }

    private static CelRules.Compilation compile(String spec, ParsedExpressions parses) {
        StructuralSchema schema = StructuralSchema.of(
                json("{'type':'object','properties':{'metadata':{'type':'object'},'spec':" + spec + "}}"));
        return CelRules.compile(schema, "openAPIV3Schema", parses);
    }

    private static List<String> fields(List<Status.Cause> causes) {
        return causes.stream().map(Status.Cause::field).toList();
    }

    private static final String SAME_RULE_ON_A_STRING_AND_AN_INTEGER = """
            {'type':'object','properties':{
              'name':{'type':'string','maxLength':10,'x-kubernetes-validations':[{'rule':'self.size() > 1'}]},
              'alias':{'type':'string','maxLength':10,'x-kubernetes-validations':[{'rule':'self.size() > 1'}]},
              'count':{'type':'integer','x-kubernetes-validations':[{'rule':'self.size() > 1'}]}}}""";

    @Test
    void aRecurringTextIsCheckedAgainstEachNodesOwnType() {
        CelRules.Compilation c = compile(SAME_RULE_ON_A_STRING_AND_AN_INTEGER, new ParsedExpressions(16));
        assertThat(fields(c.errors()))
                .containsExactly("openAPIV3Schema.properties[spec].properties[count].x-kubernetes-validations[0].rule");
        assertThat(c.errors().get(0).message()).contains("found no matching overload for 'size'");
    }

    @Test
    void aRecurringValidTextEvaluatesAtEachOfItsNodes() {
        CelRules rules = compile("""
                        {'type':'object','properties':{
                          'name':{'type':'string','maxLength':10,'x-kubernetes-validations':[{'rule':'self.size() > 1'}]},
                          'alias':{'type':'string','maxLength':10,'x-kubernetes-validations':[{'rule':'self.size() > 1'}]}}}""", new ParsedExpressions(16)).rules();
        JsonNode object = json("{'metadata':{'name':'w'},'spec':{'name':'a','alias':'b'}}");
        assertThat(fields(rules.validate(object, null))).containsExactly("spec.name", "spec.alias");
    }

    @Test
    void schemasSharingParsesCompileAsEachAlone() {
        ParsedExpressions shared = new ParsedExpressions(16);
        String broken = """
                {'type':'object','properties':{'replicas':{'type':'integer'}},
                 'x-kubernetes-validations':[{'rule':'self.replicas <= '}]}""";
        for (String spec : List.of(SAME_RULE_ON_A_STRING_AND_AN_INTEGER, broken)) {
            CelRules.Compilation alone = compile(spec, new ParsedExpressions(0));
            CelRules.Compilation first = compile(spec, shared);
            CelRules.Compilation again = compile(spec, shared);
            assertThat(first.errors()).isNotEmpty().isEqualTo(alone.errors());
            assertThat(again.errors()).isEqualTo(alone.errors());
        }
    }

    @Test
    void aParsedTextIsRememberedUpToTheCapacity() {
        ParsedExpressions parses = new ParsedExpressions(1);
        var first = parses.parseAll(List.of("1 + 1")).get("1 + 1");
        assertThat(parses.parseAll(List.of("1 + 1")).get("1 + 1")).isSameAs(first);
        Map<String, ?> two = parses.parseAll(List.of("2 + 2", "2 + 2"));
        assertThat(two).containsOnlyKeys("2 + 2");
        assertThat(parses.parseAll(List.of("1 + 1")).get("1 + 1")).isNotSameAs(first);
    }
}
