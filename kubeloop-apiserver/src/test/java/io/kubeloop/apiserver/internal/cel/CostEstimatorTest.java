package io.kubeloop.apiserver.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The static cost estimate of a validation rule equals kube-apiserver's, unit for unit: the worst case
 * CEL's cost model assigns to the rule given the sizes its schema allows (as many elements as fit in a
 * 3 MiB request where {@code maxItems}, {@code maxProperties} or {@code maxLength} are missing, the
 * declared bound where they are given). The figures are kube-apiserver's own for the same schemas and
 * rules.
 */
class CostEstimatorTest {

    /**
     * The estimated maximum cost of {@code rule} on a node with schema {@code node} (single quotes for
     * double quotes; {@code MAX} replaced by {@code bound}, or the keyword removed when {@code bound} is
     * negative).
     */
    private static long cost(String node, long bound, String rule) {
        String withBound = bound < 0
                ? node.replaceAll(",?'max(Items|Properties|Length)':MAX", "")
                : node.replace("MAX", Long.toString(bound));
        StructuralSchema root = StructuralSchema.of(KubeJson.mapper()
                .readTree(("{'type':'object','properties':{'spec':" + withBound + "}}").replace('\'', '"')));
        StructuralSchema spec = root.properties().get("spec");
        SchemaTypes types = SchemaTypes.of(root);
        CelType self = types.typeOf(spec);
        CelValidationResult compiled = CelEnvironment.STANDARD
                .compiler(types.provider(), Map.of("self", self, "oldSelf", self))
                .compile(rule);
        assertThat(compiled.hasError()).as(compiled.getErrorString()).isFalse();
        CelAbstractSyntaxTree ast;
        try {
            ast = compiled.getAst();
        } catch (CelValidationException e) {
            throw new AssertionError(e);
        }
        return CostEstimator.estimate(ast, ValueSizes.of(spec, false)).max();
    }

    private static final String NUMBERS = "{'type':'array','maxItems':MAX,'items':{'type':'number'}}";
    private static final String STRINGS = "{'type':'array','maxItems':MAX,'items':{'type':'string'}}";
    private static final String BOUNDED_STRINGS =
            "{'type':'array','maxItems':MAX,'items':{'type':'string','maxLength':MAX}}";
    private static final String STRING = "{'type':'string','maxLength':MAX}";

    @ParameterizedTest(name = "{0}: {1} unbounded, {3} with bound {2}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "number array with all | 4718591 | 10 | 32 | " + NUMBERS + " | self.all(x, true)",
                "string array with all | 3145727 | 20 | 62 | " + STRINGS + " | self.all(x, true)",
                "boolean array with all | 1887437 | 5 | 17 | {'type':'array','maxItems':MAX,'items':{'type':'boolean'}}"
                        + " | self.all(x, true)",
                "array of number arrays with all | 3145727 | 100 | 302 | {'type':'array','maxItems':MAX,"
                        + "'items':{'type':'array','items':{'type':'number'}}} | self.all(x, true)",
                "array of objects with all | 555128 | 50 | 152 | {'type':'array','maxItems':MAX,'items':"
                        + "{'type':'object','required':['required'],'properties':{'required':{'type':'string'},"
                        + "'optional':{'type':'string'}}}} | self.all(x, true)",
                "map of numbers with all | 1348169 | 10 | 32 | {'type':'object','maxProperties':MAX,"
                        + "'additionalProperties':{'type':'number'}} | self.all(x, true)",
                "map of strings with all | 1179647 | 3 | 11 | {'type':'object','maxProperties':MAX,"
                        + "'additionalProperties':{'type':'string'}} | self.all(x, true)",
                "map of date-times with all | 349526 | 25 | 77 | {'type':'object','maxProperties':MAX,"
                        + "'additionalProperties':{'type':'string','format':'date-time'}} | self.all(x, true)",
                "string with contains | 314574 | 10 | 5 | " + STRING + " | self.contains('test')",
                "string with startsWith | 2 | 15 | 2 | " + STRING + " | self.startsWith('test')",
                "concat string | 314578 | 4 | 7 | " + STRING + " | size(self + 'hello') > size('hello')",
                "index of array with strings | 314577 | 8 | 314577 | " + STRINGS + " | self[1] == self[1]",
                "index of array with numbers | 2 | 5000 | 2 | " + NUMBERS + " | self[1] == 0.0",
                "O(n^3) loop with numbers | 0 | 10 | 3552 | " + NUMBERS
                        + " | self.all(x, self.all(y, self.all(z, true)))",
                "regex matches simple | 314574 | 50 | 22 | " + STRING + " | self.matches('x')",
                "regex matches empty regex | 1 | 100 | 1 | " + STRING + " | self.matches('')",
                "map of strings with value length | 2752507 | 10 | 72 | {'type':'object','maxProperties':MAX,"
                        + "'additionalProperties':{'type':'string','maxLength':MAX}} | self.all(x, x.contains(self[x]))",
                "nested types with root rule | 7340027 | 10 | 72 | {'type':'array','maxItems':MAX,'items':"
                        + "{'type':'object','maxProperties':MAX,'additionalProperties':{'type':'object',"
                        + "'maxProperties':MAX,'required':['required'],'properties':{'required':{'type':'string'},"
                        + "'optional':{'type':'string'}}}}} | self.all(x, x['y'].required == 'z')",
                "int-or-string array with all | 4718591 | 10 | 32 | {'type':'array','maxItems':MAX,"
                        + "'items':{'x-kubernetes-int-or-string':true}} | self.all(x, true)",
                "index of array of number maps | 4 | 3000 | 4 | {'type':'array','maxItems':MAX,'items':"
                        + "{'type':'object','additionalProperties':{'type':'number'}}} | self[0].x > 2.0",
                "duration array with all | 2359295 | 5 | 17 | {'type':'array','maxItems':MAX,"
                        + "'items':{'type':'string','format':'duration'}} | self.all(x, true)",
                "index of duration array | 4 | 525 | 4 | {'type':'array','maxItems':MAX,"
                        + "'items':{'type':'string','format':'duration'}} | self[0].getHours() == 2",
                "date-time array with all | 428963 | 25 | 77 | {'type':'array','maxItems':MAX,"
                        + "'items':{'type':'string','format':'date-time'}} | self.all(x, true)",
                "regex find | 629147 | 10 | 11 | " + STRING + " | self.find('[0-9]+') == ''",
                "join | 329853068905 | 10 | 43 | " + BOUNDED_STRINGS + " | self.join(' ') == 'aa bb'",
                "isSorted | 329854432052 | 10 | 52 | " + BOUNDED_STRINGS + " | self.isSorted() == true",
                "replace | 629154 | 4 | 12 | {'type':'object','properties':{'str':{'type':'string','maxLength':MAX},"
                        + "'before':{'type':'string','maxLength':2},'after':{'type':'string','maxLength':4}}}"
                        + " | self.str.replace(self.before, self.after) == 'does not matter'",
                "split | 629160 | 10 | 22 | {'type':'object','properties':{'str':{'type':'string','maxLength':MAX},"
                        + "'separator':{'type':'string','maxLength':MAX}}} | self.str.split(self.separator) == []",
                "lowerAscii | 314575 | 10 | 6 | " + STRING + " | self.lowerAscii() == 'lower!'",
                "size call | 5 | 10 | 5 | {'type':'object','maxProperties':MAX,'additionalProperties':"
                        + "{'type':'integer'}} | oldSelf.size() == self.size()",
                "timestamp comparison | 8 | 7 | 8 | {'type':'object','maxProperties':MAX,'additionalProperties':"
                        + "{'type':'string','format':'date-time'}} | self['a'] == self['b']",
                "enum bounds the length | 2 | 1000 | 401 | {'type':'string','maxLength':MAX,"
                        + "'enum':['A','B','C','LongValue']} | self.contains('A')",
            })
    void estimatesEqualKubeApiserversWithAndWithoutBounds(
            String name, long unbounded, long bound, long bounded, String node, String rule) {
        if (unbounded > 0) {
            assertThat(cost(node, -1, rule)).as("unbounded").isEqualTo(unbounded);
        }
        assertThat(cost(node, bound, rule)).as("bounded by " + bound).isEqualTo(bounded);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                NUMBERS + " | self.all(x, self.all(y, true))",
                NUMBERS + " | self.all(x, self.all(y, self.all(z, true)))",
            })
    void nestedLoopsOverUnboundedListsExceedTheSchemaBudget(String node, String rule) {
        assertThat(Long.compareUnsigned(cost(node, -1, rule), CostLimits.PER_SCHEMA))
                .isPositive();
    }
}
