package io.kubeloop.apiserver.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.errors.Status;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * CRD validation rules ({@code x-kubernetes-validations}) compiled against the schema's types and
 * evaluated as kube-apiserver evaluates them: messages, reasons, field paths, transition rules,
 * ratcheting, correlation of list-map items, Kubernetes' CEL libraries and the cost limit.
 */
class CelRulesTest {

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text.replace('\'', '"'));
    }

    /** A root schema with {@code spec} as given (single quotes for double quotes). */
    private static CelRules rules(String spec) {
        CelRules.Compilation c = compile(spec);
        assertThat(c.errors()).as("compile errors").isEmpty();
        return c.rules();
    }

    private static CelRules.Compilation compile(String spec) {
        StructuralSchema schema = StructuralSchema.of(
                json("{'type':'object','properties':{'metadata':{'type':'object'},'spec':" + spec + "}}"));
        return CelRules.compile(schema, "openAPIV3Schema");
    }

    private static JsonNode object(String spec) {
        return json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w1'},'spec':" + spec + "}");
    }

    private static List<String> rendered(List<Status.Cause> causes) {
        return causes.stream().map(c -> c.field() + ": " + c.message()).toList();
    }

    private static final String REPLICAS_AT_MOST_10 = """
            {'type':'object','properties':{'replicas':{'type':'integer'}},
             'x-kubernetes-validations':[{'rule':'self.replicas <= 10'}]}""";

    @Test
    void aFalseRuleIsAnInvalidCauseAtItsNodeWithTheDefaultMessage() {
        CelRules r = rules(REPLICAS_AT_MOST_10);
        assertThat(r.validate(object("{'replicas':3}"), null)).isEmpty();
        List<Status.Cause> causes = r.validate(object("{'replicas':11}"), null);
        assertThat(rendered(causes))
                .containsExactly("spec: Invalid value: \"object\": failed rule: self.replicas <= 10");
        assertThat(causes.get(0).reason()).isEqualTo("FieldValueInvalid");
    }

    @Test
    void messageReasonAndFieldPathShapeTheCause() {
        CelRules r = rules("""
                {'type':'object','properties':{'replicas':{'type':'integer'}},
                 'x-kubernetes-validations':[{'rule':'self.replicas <= 10','message':'too many replicas',
                   'reason':'FieldValueForbidden','fieldPath':'.replicas'}]}""");
        List<Status.Cause> causes = r.validate(object("{'replicas':11}"), null);
        assertThat(rendered(causes)).containsExactly("spec.replicas: Forbidden: too many replicas");
        assertThat(causes.get(0).reason()).isEqualTo("FieldValueForbidden");
    }

    @Test
    void messageExpressionBuildsTheMessageFromTheValue() {
        CelRules r = rules("""
                {'type':'object','properties':{'replicas':{'type':'integer'},'name':{'type':'string','maxLength':20}},
                 'x-kubernetes-validations':[{'rule':'self.replicas <= 10','message':'static',
                   'messageExpression':'self.name + \\u0027 has over 10 replicas\\u0027'}]}""");
        assertThat(rendered(r.validate(object("{'replicas':12,'name':'web'}"), null)))
                .containsExactly("spec: Invalid value: \"object\": web has over 10 replicas");
    }

    @Test
    void rootRulesSeeNameAndGenerateNameAndReportAtNil() {
        StructuralSchema schema = StructuralSchema.of(json("""
                {'type':'object','properties':{'metadata':{'type':'object'},'spec':{'type':'object'}},
                 'x-kubernetes-validations':[{'rule':'self.metadata.name.startsWith(\\u0027w\\u0027)','message':'name must start with w'}]}"""));
        CelRules.Compilation c = CelRules.compile(schema, "openAPIV3Schema");
        assertThat(c.errors()).isEmpty();
        CelRules r = c.rules();
        assertThat(r.validate(object("{}"), null)).isEmpty();
        JsonNode bad = json("{'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'x1'},'spec':{}}");
        assertThat(rendered(r.validate(bad, null)))
                .containsExactly("<nil>: Invalid value: \"object\": name must start with w");
    }

    @Test
    void transitionRulesRunOnlyOnUpdateAndCompareWithTheOldValue() {
        CelRules r = rules("""
                {'type':'object','properties':{'class':{'type':'string',
                  'x-kubernetes-validations':[{'rule':'self == oldSelf','message':'class is immutable'}]}}}""");
        assertThat(r.validate(object("{'class':'a'}"), null)).as("create").isEmpty();
        assertThat(r.validate(object("{'class':'a'}"), object("{'class':'a'}"))).isEmpty();
        assertThat(rendered(r.validate(object("{'class':'b'}"), object("{'class':'a'}"))))
                .containsExactly("spec.class: Invalid value: \"string\": class is immutable");
        assertThat(r.validate(object("{'class':'b'}"), object("{}")))
                .as("no old value to compare with")
                .isEmpty();
    }

    @Test
    void optionalOldSelfRunsOnCreateWithAnEmptyOptional() {
        CelRules r = rules("""
                {'type':'object','properties':{'size':{'type':'integer',
                  'x-kubernetes-validations':[{'rule':'oldSelf.hasValue() ? self >= oldSelf.value() : self < 5',
                    'optionalOldSelf':true,'message':'may only grow, from below 5'}]}}}""");
        assertThat(r.validate(object("{'size':3}"), null)).isEmpty();
        assertThat(r.validate(object("{'size':7}"), null)).hasSize(1);
        assertThat(r.validate(object("{'size':9}"), object("{'size':7}"))).isEmpty();
        assertThat(r.validate(object("{'size':6}"), object("{'size':7}"))).hasSize(1);
    }

    @Test
    void anUnchangedValueIsNotRevalidatedOnUpdate() {
        CelRules r = rules(REPLICAS_AT_MOST_10);
        JsonNode stored = object("{'replicas':20}");
        assertThat(r.validate(object("{'replicas':20}"), stored))
                .as("ratcheting")
                .isEmpty();
        assertThat(r.validate(object("{'replicas':21}"), stored)).hasSize(1);
    }

    @Test
    void listMapItemsCorrelateWithTheOldItemOfTheSameKey() {
        CelRules r = rules("""
                {'type':'object','properties':{'ports':{'type':'array','x-kubernetes-list-type':'map',
                  'x-kubernetes-list-map-keys':['name'],
                  'items':{'type':'object','required':['name'],
                    'properties':{'name':{'type':'string'},'port':{'type':'integer'}},
                    'x-kubernetes-validations':[{'rule':'self.port == oldSelf.port','message':'port is immutable'}]}}}}""");
        JsonNode old = object("{'ports':[{'name':'a','port':1},{'name':'b','port':2}]}");
        assertThat(r.validate(object("{'ports':[{'name':'b','port':2},{'name':'a','port':1}]}"), old))
                .as("reordered")
                .isEmpty();
        assertThat(rendered(r.validate(object("{'ports':[{'name':'a','port':1},{'name':'b','port':3}]}"), old)))
                .containsExactly("spec.ports[1]: Invalid value: \"object\": port is immutable");
        assertThat(r.validate(object("{'ports':[{'name':'c','port':9}]}"), old))
                .as("new item")
                .isEmpty();
    }

    @Test
    void mapValuesAreValidatedPerKey() {
        CelRules r = rules("""
                {'type':'object','properties':{'limits':{'type':'object',
                  'additionalProperties':{'type':'integer','x-kubernetes-validations':[{'rule':'self > 0'}]}}}}""");
        assertThat(rendered(r.validate(object("{'limits':{'cpu':1,'memory':0}}"), null)))
                .containsExactly("spec.limits[memory]: Invalid value: \"integer\": failed rule: self > 0");
    }

    @Test
    void fieldNamesThatAreReservedWordsOrHoldDashesAreEscaped() {
        CelRules r = rules("""
                {'type':'object','properties':{'namespace':{'type':'string'},'max-size':{'type':'integer'},
                  'a.b':{'type':'integer'}},
                 'x-kubernetes-validations':[{'rule':'has(self.__namespace__) && self.max__dash__size > self.a__dot__b'}]}""");
        assertThat(r.validate(object("{'namespace':'n','max-size':2,'a.b':1}"), null))
                .isEmpty();
        assertThat(r.validate(object("{'max-size':2,'a.b':1}"), null)).hasSize(1);
        assertThat(r.validate(object("{'namespace':'n','max-size':1,'a.b':1}"), null))
                .hasSize(1);
    }

    @Test
    void compileErrorsNameTheRuleAndTheProblem() {
        CelRules.Compilation c = compile("""
                {'type':'object','properties':{'replicas':{'type':'integer'},
                  'items':{'type':'array','maxItems':10,'items':{'type':'string','maxLength':10,
                    'x-kubernetes-validations':[{'rule':'self == oldSelf'}]}}},
                 'x-kubernetes-validations':[
                   {'rule':'self.replicaz > 1'},
                   {'rule':'self.replicas'},
                   {'rule':'self.replicas > 1','reason':'Nope'},
                   {'rule':'self.replicas > 1','fieldPath':'.nothing'},
                   {'rule':'self.replicas > 1','optionalOldSelf':true},
                   {'rule':''}]}""");
        String at = "openAPIV3Schema.properties[spec]";
        assertThat(c.errors())
                .extracting(Status.Cause::field)
                .containsExactly(
                        at + ".x-kubernetes-validations[0].rule",
                        at + ".x-kubernetes-validations[1].rule",
                        at + ".x-kubernetes-validations[2].reason",
                        at + ".x-kubernetes-validations[3].fieldPath",
                        at + ".x-kubernetes-validations[4].optionalOldSelf",
                        at + ".x-kubernetes-validations[5].rule",
                        at + ".properties[items].items.x-kubernetes-validations[0].rule");
        List<String> messages = c.errors().stream().map(Status.Cause::message).toList();
        assertThat(messages.get(0)).contains("compilation failed").contains("undefined field 'replicaz'");
        assertThat(messages.get(1)).endsWith("cel expression must evaluate to a bool");
        assertThat(messages.get(2)).startsWith("Unsupported value: \"Nope\"");
        assertThat(messages.get(3)).contains("does not refer to a valid field");
        assertThat(messages.get(4)).contains("may not be set if oldSelf is not used in rule");
        assertThat(messages.get(5)).isEqualTo("Required value: rule is not specified");
        assertThat(messages.get(6)).contains("uncorrelatable");
        assertThat(c.rules().isEmpty()).isTrue();
    }

    /** {@code n} rules on strings without maxLength in a list of at most {@code maxItems} (none when negative). */
    private static String stringsWithRules(int maxItems, String... rules) {
        StringBuilder validations = new StringBuilder();
        for (String rule : rules) {
            validations
                    .append(validations.isEmpty() ? "" : ",")
                    .append("{'rule':'")
                    .append(rule)
                    .append("'}");
        }
        return "{'type':'object','properties':{'names':{'type':'array',"
                + (maxItems < 0 ? "" : "'maxItems':" + maxItems + ",")
                + "'items':{'type':'string','x-kubernetes-validations':[" + validations + "]}}}}";
    }

    private static final String ADVICE = " (try simplifying the rule, or adding maxItems, maxProperties, and"
            + " maxLength where arrays, maps, and strings are declared)";

    @Test
    void aRuleEstimatedOverItsBudgetIsRefusedWithKubeApiserversMessage() {
        // contains() on a string of up to 3 MiB costs 314574; in a list of up to 100 such strings, 31457400
        String at = "openAPIV3Schema.properties[spec].properties[names].items.x-kubernetes-validations[0].rule";
        CelRules.Compilation c = compile(stringsWithRules(100, "self.contains(\\u0027test\\u0027)"));
        assertThat(c.errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo(at);
            assertThat(e.reason()).isEqualTo("FieldValueForbidden");
            assertThat(e.message())
                    .isEqualTo("Forbidden: estimated rule cost exceeds budget by factor of 3.1x" + ADVICE);
        });
        assertThat(c.rules().isEmpty()).isTrue();
        assertThat(compile(stringsWithRules(40, "self.contains(\\u0027test\\u0027)"))
                        .errors())
                .extracting(Status.Cause::message)
                .containsExactly("Forbidden: estimated rule cost exceeds budget by factor of 1.258296x" + ADVICE);
        // unbounded: over the schema's budget as well, which names the rule as its costliest
        assertThat(compile(stringsWithRules(-1, "self.contains(\\u0027test\\u0027)"))
                        .errors())
                .extracting(Status.Cause::message)
                .containsExactly(
                        "Forbidden: estimated rule cost exceeds budget by factor of more than 100x" + ADVICE,
                        "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire"
                                + " OpenAPIv3 schema",
                        "Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema"
                                + " exceeds budget by factor of more than 100x" + ADVICE);
    }

    @Test
    void aRuleWithinItsBudgetIsAccepted() {
        CelRules r = rules(stringsWithRules(10, "self.contains(\\u0027test\\u0027)"));
        assertThat(r.validate(object("{'names':['a test']}"), null)).isEmpty();
        assertThat(r.validate(object("{'names':['none']}"), null)).hasSize(1);
    }

    @Test
    void rulesWhoseTotalIsOverTheSchemaBudgetAreRefusedWithTheCostliestNamed() {
        // eleven rules of 314574 x 30 = 9437220 each: each within 10M, together 103809420 > 100M
        String[] rules = new String[11];
        for (int i = 0; i < rules.length; i++) {
            rules[i] = "self.contains(\\u0027t" + i + "\\u0027)";
        }
        CelRules.Compilation c = compile(stringsWithRules(30, rules));
        String items = "openAPIV3Schema.properties[spec].properties[names].items.x-kubernetes-validations";
        String contributed = "rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for"
                + " entire OpenAPIv3 schema";
        String total = "openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire"
                + " OpenAPIv3 schema exceeds budget by factor of 1.038094x";
        assertThat(rendered(c.errors()))
                .containsExactly(
                        items + "[0]." + contributed,
                        items + "[1]." + contributed,
                        items + "[2]." + contributed,
                        items + "[3]." + contributed,
                        total + ADVICE);
    }

    @Test
    void aMessageExpressionOverItsBudgetIsRefused() {
        CelRules.Compilation c = compile("""
                {'type':'object','properties':{'names':{'type':'array','maxItems':10,'items':{'type':'string'}}},
                 'x-kubernetes-validations':[{'rule':'size(self.names) < 5',
                   'messageExpression':'self.names.exists(x, self.names.exists(y, x.contains(y))) ? \\u0027a\\u0027 : \\u0027b\\u0027'}]}""");
        String at = "openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: ";
        assertThat(rendered(c.errors()))
                .containsExactly(
                        at + "Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x"
                                + ADVICE,
                        at + "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire"
                                + " OpenAPIv3 schema",
                        "openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire"
                                + " OpenAPIv3 schema exceeds budget by factor of more than 100x" + ADVICE);
    }

    @Test
    void kubernetesAndExtensionLibrariesAreAvailable() {
        CelRules r = rules("""
                {'type':'object','properties':{
                  'nums':{'type':'array','maxItems':10,'items':{'type':'integer'}},
                  'words':{'type':'array','maxItems':10,'items':{'type':'string','maxLength':10}},
                  'host':{'type':'string','maxLength':64},'net':{'type':'string','maxLength':64},
                  'url':{'type':'string','maxLength':64},
                  'timeout':{'type':'string','format':'duration'},
                  'at':{'type':'string','format':'date-time'},
                  'opt':{'type':'string','maxLength':10}},
                 'x-kubernetes-validations':[
                   {'rule':'self.nums.isSorted() && self.nums.sum() == 6 && self.nums.max() == 3 && self.nums.indexOf(2) == 1'},
                   {'rule':'self.words.map(w, w.upperAscii()).join(\\u0027,\\u0027) == \\u0027A,B\\u0027'},
                   {'rule':'\\u0027ab12cd3\\u0027.findAll(\\u0027[0-9]+\\u0027) == [\\u002712\\u0027, \\u00273\\u0027]'},
                   {'rule':'isIP(self.host) && isCIDR(self.net) && isURL(self.url) && !isIP(\\u002701.2.3.4\\u0027)'},
                   {'rule':'self.timeout > duration(\\u00271s\\u0027) && self.at < timestamp(\\u00272030-01-01T00:00:00Z\\u0027)'},
                   {'rule':'self.?opt.orValue(\\u0027none\\u0027) == \\u0027none\\u0027'},
                   {'rule':'sets.contains(self.words, [\\u0027a\\u0027])'}]}""");
        JsonNode ok = object("""
                {'nums':[1,2,3],'words':['a','b'],'host':'fd00::1','net':'10.0.0.0/8','url':'https://x.example/p',
                 'timeout':'1m30s','at':'2026-01-01T00:00:00Z'}""");
        assertThat(r.validate(ok, null)).isEmpty();
        JsonNode bad = object("""
                {'nums':[3,2,1],'words':['a','b'],'host':'1.2.3','net':'10.0.0.0/33','url':'https://x.example/p',
                 'timeout':'500ms','at':'2026-01-01T00:00:00Z','opt':'x'}""");
        assertThat(r.validate(bad, null)).hasSize(4);
    }

    @Test
    void anEvaluationErrorIsReportedWithTheRule() {
        CelRules r = rules("""
                {'type':'object','properties':{'a':{'type':'integer'},'b':{'type':'integer'}},
                 'x-kubernetes-validations':[{'rule':'self.a / self.b > 1'}]}""");
        assertThat(rendered(r.validate(object("{'a':1,'b':0}"), null)))
                .singleElement()
                .asString()
                .startsWith("spec: Invalid value: \"object\": ")
                .contains("division by zero")
                .endsWith("evaluating rule: self.a / self.b > 1");
    }

    @Test
    void aRuleOverItsCostLimitFailsAndStopsFurtherRules() {
        CelRules r = rules("""
                {'type':'object','properties':{'nums':{'type':'array','maxItems':1000,'items':{'type':'integer'}},
                  'later':{'type':'integer','x-kubernetes-validations':[{'rule':'self < 0'}]}},
                 'x-kubernetes-validations':[{'rule':'self.nums.all(x, self.nums.all(y, x + y >= 0))'}]}""");
        StringBuilder nums = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            nums.append(i == 0 ? "" : ",").append(i);
        }
        JsonNode big = object("{'nums':" + nums + "],'later':1}");
        assertThat(rendered(r.validate(big, null)))
                .containsExactly("spec: Invalid value: \"object\": no further validation rules will be run due to "
                        + "call cost exceeds limit for rule: self.nums.all(x, self.nums.all(y, x + y >= 0))");
        assertThat(r.validate(object("{'nums':[1,2,3],'later':1}"), null)).hasSize(1);
    }
}
