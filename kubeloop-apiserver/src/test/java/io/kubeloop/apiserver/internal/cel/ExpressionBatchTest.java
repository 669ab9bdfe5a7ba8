package io.kubeloop.apiserver.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.compiler.CelCompiler;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import io.kubeloop.apiserver.internal.schema.ValidationRule;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Type-checking many rules in one batch gives each rule exactly what checking it alone gives: the same
 * expression tree, result type, types and references. Shown on every rule of the Gateway API's
 * standard-channel CRDs (and on rules that use comprehension variables named like {@code self});
 * a batch with an error in any rule gives nothing, so the caller can check one by one for the exact
 * messages.
 */
class ExpressionBatchTest {

    private record Rule(String text, CelType self, CelType oldSelf) {}

    private static final CelCompiler PARSER = CelEnvironment.STANDARD.compiler(SchemaTypes.NONE, Map.of());

    @Test
    void everyGatewayApiRuleCheckedInABatchEqualsItCheckedAlone() throws Exception {
        int compared = 0;
        for (StructuralSchema schema : gatewayApiSchemas()) {
            SchemaTypes types = SchemaTypes.of(schema);
            List<Rule> rules = new ArrayList<>();
            collect(schema, types, rules);
            List<ExpressionBatch.Item> items = rules.stream()
                    .map(r -> new ExpressionBatch.Item(parse(r.text()), r.self(), r.oldSelf()))
                    .toList();
            List<CelAbstractSyntaxTree> batch =
                    ExpressionBatch.check(items, types.provider()).orElseThrow();
            for (int i = 0; i < rules.size(); i++) {
                CelAbstractSyntaxTree alone = alone(rules.get(i), types);
                CelAbstractSyntaxTree together = batch.get(i);
                assertThat(together.getExpr()).as(rules.get(i).text()).isEqualTo(alone.getExpr());
                assertThat(together.getResultType()).isEqualTo(alone.getResultType());
                assertThat(together.getTypeMap()).isEqualTo(alone.getTypeMap());
                assertThat(together.getReferenceMap()).isEqualTo(alone.getReferenceMap());
                assertThat(together.getSource().getMacroCalls())
                        .isEqualTo(alone.getSource().getMacroCalls());
                compared++;
            }
        }
        assertThat(compared).as("rules compared").isGreaterThan(290);
    }

    @Test
    void comprehensionVariablesNamedSelfKeepTheirOwnTypes() throws Exception {
        StructuralSchema schema = StructuralSchema.of(json("""
                {'type':'object','properties':{
                  'a':{'type':'array','items':{'type':'integer'}},
                  'b':{'type':'array','items':{'type':'string'}}}}"""));
        SchemaTypes types = SchemaTypes.of(schema);
        CelType a = types.typeOf(schema.properties().get("a"));
        CelType b = types.typeOf(schema.properties().get("b"));
        List<Rule> rules = List.of(
                new Rule("self.all(self, self > 0) && size(self) < 3", a, a),
                new Rule("self.exists(oldSelf, oldSelf == 'x') || oldSelf.hasValue()", b, OptionalType.create(b)));
        List<CelAbstractSyntaxTree> batch = ExpressionBatch.check(
                        rules.stream()
                                .map(r -> new ExpressionBatch.Item(parse(r.text()), r.self(), r.oldSelf()))
                                .toList(),
                        types.provider())
                .orElseThrow();
        for (int i = 0; i < rules.size(); i++) {
            CelAbstractSyntaxTree alone = alone(rules.get(i), types);
            assertThat(batch.get(i).getExpr()).isEqualTo(alone.getExpr());
            assertThat(batch.get(i).getTypeMap()).isEqualTo(alone.getTypeMap());
            assertThat(batch.get(i).getReferenceMap()).isEqualTo(alone.getReferenceMap());
        }
    }

    @Test
    void aBatchWithAnErrorInOneRuleGivesNoResult() throws Exception {
        StructuralSchema schema = StructuralSchema.of(json("""
                {'type':'object','properties':{'a':{'type':'integer'}}}"""));
        SchemaTypes types = SchemaTypes.of(schema);
        CelType self = types.typeOf(schema);
        List<ExpressionBatch.Item> items = List.of(
                new ExpressionBatch.Item(parse("self.a > 1"), self, self),
                new ExpressionBatch.Item(parse("self.missing > 1"), self, self));
        assertThat(ExpressionBatch.check(items, types.provider())).isEmpty();
    }

    private static CelAbstractSyntaxTree alone(Rule r, SchemaTypes types) throws Exception {
        CelValidationResult result = CelEnvironment.STANDARD
                .compiler(types.provider(), Map.of("self", r.self(), "oldSelf", r.oldSelf()))
                .compile(r.text());
        assertThat(result.hasError())
                .as(r.text() + ": " + result.getErrorString())
                .isFalse();
        return result.getAst();
    }

    private static CelAbstractSyntaxTree parse(String text) {
        try {
            return PARSER.parse(text).getAst();
        } catch (CelValidationException e) {
            throw new AssertionError(e);
        }
    }

    private static void collect(StructuralSchema s, SchemaTypes types, List<Rule> out) {
        CelType self = types.typeOf(s);
        for (ValidationRule v : s.validationRules()) {
            CelType oldSelf = v.optionalOldSelf() ? OptionalType.create(self) : self;
            out.add(new Rule(v.rule(), self, oldSelf));
            if (!v.messageExpression().isEmpty()) {
                out.add(new Rule(v.messageExpression(), self, oldSelf));
            }
        }
        s.properties().values().forEach(p -> collect(p, types, out));
        s.items().ifPresent(i -> collect(i, types, out));
        s.additionalProperties().ifPresent(v -> collect(v, types, out));
    }

    private static List<StructuralSchema> gatewayApiSchemas() throws IOException, URISyntaxException {
        Path dir = Path.of(
                ExpressionBatchTest.class.getResource("/gateway-api/crds").toURI());
        List<StructuralSchema> out = new ArrayList<>();
        YAMLMapper yaml = YAMLMapper.builder().build();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                JsonNode crd = yaml.readTree(f.toFile());
                for (JsonNode v : crd.path("spec").path("versions")) {
                    out.add(StructuralSchema.of(v.path("schema").path("openAPIV3Schema")));
                }
            }
        }
        return out;
    }

    private static JsonNode json(String text) {
        return KubeJson.mapper().readTree(text.replace('\'', '"'));
    }
}
