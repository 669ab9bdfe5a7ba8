package io.kubeloop.api.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LabelSelectorTest {

    private static final Map<String, String> WEB = Map.of("app", "web", "tier", "frontend", "replicas", "3");

    @Nested
    class Parsing {

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "app=web                        | app=web",
                    "app==web                       | app==web",
                    "app!=web                       | app!=web",
                    "app in (web,db)                | app in (db,web)",
                    "app notin (web, db)            | app notin (db,web)",
                    "app                            | app",
                    "!app                           | !app",
                    "replicas>2                     | replicas>2",
                    "replicas<2                     | replicas<2",
                    "' tier = frontend , app = web '  | app=web,tier=frontend",
                    "'a=b,\tc\n in\r(x)'            | a=b,c in (x)",
                    "app=                           | app=",
                    "'app in ()'                    | app in ()",
                    "'app in (,a)'                  | app in (,a)",
                    "'app in (a,)'                  | app in (,a)",
                    "'app in (a,,b)'                | app in (,a,b)",
                    "'in in (in,notin)'             | in in (in,notin)",
                    "example.com/app=v1.2_3-x       | example.com/app=v1.2_3-x",
                    "'z,y,x=1'                      | x=1,y,z",
                    "'a in (b,b,a)'                 | a in (a,b)",
                })
        void parsesAndFormatsCanonically(String text, String canonical) {
            LabelSelector s = LabelSelector.parse(text);

            assertThat(s.format()).isEqualTo(canonical);
            assertThat(LabelSelector.parse(canonical)).isEqualTo(s);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   ", "\t\n"})
        void blankIsEverything(String text) {
            assertThat(LabelSelector.parse(text).isEverything()).isTrue();
            assertThat(LabelSelector.parse(text)).isEqualTo(LabelSelector.everything());
        }

        @Test
        void errorPointsAtTheOffendingToken() {
            assertThatThrownBy(() -> LabelSelector.parse("tier a xx"))
                    .isInstanceOfSatisfying(SelectorParseException.class, e -> {
                        assertThat(e.position()).isEqualTo(5);
                        assertThat(e.problem())
                                .isEqualTo(
                                        "unable to parse requirement: found 'a', expected: in, notin, =, ==, !=, gt, lt");
                        assertThat(e.getMessage())
                                .isEqualTo("unable to parse requirement: found 'a', expected: "
                                        + "in, notin, =, ==, !=, gt, lt at position 5\n  tier a xx\n       ^");
                    });
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "a=b c          | 4 | found 'c', expected: ',' or 'end of string'",
                    "a=b,           | 4 | found '', expected: identifier after ','",
                    ",a             | 0 | found ',', expected: !, identifier, or 'end of string'",
                    "a in b         | 5 | unable to parse requirement: found 'b' expected: '('",
                    "a in (b c)     | 8 | unable to parse requirement: found 'c', expected: ',' or ')'",
                    "a in (b        | 7 | unable to parse requirement: found '', expected: ',' or ')'",
                    "a in (=)       | 6 | unable to parse requirement: found '=', expected: ',', ')' or identifier",
                    "a=(            | 2 | unable to parse requirement: found '(', expected: identifier",
                    "!a=b           | 2 | found '=', expected: ',' or 'end of string'",
                    "!=a            | 0 | found '!=', expected: !, identifier, or 'end of string'",
                    "a>b            | 2 | unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer, found 'b'",
                    "a>=1           | 2 | unable to parse requirement: found '=', expected: identifier",
                    "a<             | 2 | unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer, found ''",
                })
        void malformedTextNamesProblemAndPosition(String text, int position, String problem) {
            assertThatThrownBy(() -> LabelSelector.parse(text))
                    .isInstanceOfSatisfying(SelectorParseException.class, e -> {
                        assertThat(e.problem()).isEqualTo(problem);
                        assertThat(e.position()).isEqualTo(position);
                        assertThat(e.input()).isEqualTo(text);
                    });
        }

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "-app=x            | 0 | name part must consist of",
                    "app-=x            | 0 | name part must consist of",
                    "Example.com/a=x   | 0 | prefix part a lowercase RFC 1123 subdomain",
                    "/a=x              | 0 | prefix part must be non-empty",
                    "a/=x              | 0 | name part must be non-empty",
                    "a/b/c=x           | 0 | a qualified name must consist of",
                    "app=-x            | 4 | a valid label must be an empty string or",
                    "app in (ok,x_)    | 11 | a valid label must be an empty string or",
                    "a>-1              | 2 | a valid label must be an empty string or",
                })
        void invalidKeysAndValuesAreRejectedWhereTheyAre(String text, int position, String problemPart) {
            assertThatThrownBy(() -> LabelSelector.parse(text))
                    .isInstanceOfSatisfying(SelectorParseException.class, e -> {
                        assertThat(e.problem()).contains(problemPart);
                        assertThat(e.position()).isEqualTo(position);
                    });
        }

        @Test
        void lengthLimitsFollowApimachinery() {
            String name63 = "a".repeat(63);
            String prefix253 = ("b".repeat(61) + ".").repeat(4) + "c".repeat(5);
            assertThat(prefix253).hasSize(253);

            assertThat(LabelSelector.parse(prefix253 + "/" + name63 + "=" + name63)
                            .requirements())
                    .hasSize(1);
            assertThatThrownBy(() -> LabelSelector.parse(name63 + "a"))
                    .hasMessageContaining("name part must be no more than 63 characters");
            assertThatThrownBy(() -> LabelSelector.parse("a=" + name63 + "a"))
                    .hasMessageContaining("must be no more than 63 characters");
            assertThatThrownBy(() -> LabelSelector.parse("b" + prefix253 + "/a"))
                    .hasMessageContaining("prefix part must be no more than 253 characters");
        }
    }

    @Nested
    class Matching {

        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "app=web                 | true",
                    "app==web                | true",
                    "app=db                  | false",
                    "app!=db                 | true",
                    "app!=web                | false",
                    "missing!=x              | true",
                    "app in (db,web)         | true",
                    "app in (db)             | false",
                    "missing in (x)          | false",
                    "app notin (db)          | true",
                    "app notin (web)         | false",
                    "missing notin (x)       | true",
                    "app                     | true",
                    "missing                 | false",
                    "!missing                | true",
                    "!app                    | false",
                    "replicas>2              | true",
                    "replicas>3              | false",
                    "replicas<4              | true",
                    "replicas<3              | false",
                    "app>1                   | false",
                    "missing<1               | false",
                    "'app=web,tier=frontend' | true",
                    "'app=web,tier=backend'  | false",
                    "missing=                | false",
                    "''                      | true",
                })
        void matchesAsApimachinery(String selector, boolean expected) {
            assertThat(LabelSelector.parse(selector).matches(WEB)).isEqualTo(expected);
        }

        @Test
        void emptyValueMatchesAnEmptyLabel() {
            assertThat(LabelSelector.parse("a=").matches(Map.of("a", ""))).isTrue();
            assertThat(LabelSelector.parse("a in ()").matches(Map.of("a", ""))).isTrue();
        }

        @Test
        void nothingMatchesNothingAndPrintsEmpty() {
            assertThat(LabelSelector.nothing().matches(Map.of())).isFalse();
            assertThat(LabelSelector.nothing().matches(WEB)).isFalse();
            assertThat(LabelSelector.nothing().format()).isEmpty();
            assertThat(LabelSelector.nothing()).isNotEqualTo(LabelSelector.everything());
            assertThat(LabelSelector.everything().matches(Map.of())).isTrue();
        }

        @Test
        void requiresExactMatchFindsPinnedValues() {
            LabelSelector s = LabelSelector.parse("a=1,b in (2),c in (3,4),d!=5");

            assertThat(s.requiresExactMatch("a")).contains("1");
            assertThat(s.requiresExactMatch("b")).contains("2");
            assertThat(s.requiresExactMatch("c")).isEmpty();
            assertThat(s.requiresExactMatch("d")).isEmpty();
            assertThat(s.requiresExactMatch("zz")).isEmpty();
        }
    }

    @Nested
    class Construction {

        @Test
        void builderEqualsParsedText() {
            LabelSelector built = LabelSelector.builder()
                    .equal("app", "web")
                    .notEqual("env", "dev")
                    .in("tier", "b", "a")
                    .notIn("zone", "x")
                    .exists("owner")
                    .doesNotExist("canary")
                    .greaterThan("replicas", 1)
                    .lessThan("age", 10)
                    .build();

            assertThat(built)
                    .isEqualTo(LabelSelector.parse(
                            "app=web,env!=dev,tier in (a,b),zone notin (x),owner,!canary,replicas>1,age<10"));
            assertThat(built.format())
                    .isEqualTo("age<10,app=web,!canary,env!=dev,owner,replicas>1,tier in (a,b),zone notin (x)");
        }

        @Test
        void matchingLabelsIsAnAndOfEquals() {
            LabelSelector s = LabelSelector.matchingLabels(Map.of("b", "2", "a", "1"));

            assertThat(s.format()).isEqualTo("a=1,b=2");
            assertThat(s.matches(Map.of("a", "1", "b", "2", "c", "3"))).isTrue();
            assertThat(s.matches(Map.of("a", "1"))).isFalse();
        }

        @Test
        void andAddsRequirements() {
            assertThat(LabelSelector.parse("a=1")
                            .and(LabelRequirement.exists("b"))
                            .format())
                    .isEqualTo("a=1,b");
            assertThat(LabelSelector.nothing().and(LabelRequirement.exists("b")).isNothing())
                    .isTrue();
        }

        @Test
        void requirementRejectsBadInputClearly() {
            assertThatThrownBy(() -> LabelRequirement.equal("bad key", "x"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("invalid label key \"bad key\"");
            assertThatThrownBy(() -> LabelRequirement.in("k")).hasMessageContaining("values set can't be empty");
            assertThatThrownBy(() -> new LabelRequirement("k", LabelOperator.EXISTS, List.of("x")))
                    .hasMessageContaining("values set must be empty");
            assertThatThrownBy(() -> new LabelRequirement("k", LabelOperator.GREATER_THAN, List.of("x")))
                    .hasMessageContaining("integer");
            assertThatThrownBy(() -> LabelRequirement.equal("k", "a b"))
                    .hasMessageStartingWith("invalid label value \"a b\" for key \"k\"");
        }
    }

    @Nested
    class Spec {

        @Test
        void deploymentSelectorJsonConverts() {
            LabelSelectorSpec spec = KubeJson.mapper().readValue("""
                    {"matchLabels": {"app": "web"},
                     "matchExpressions": [
                       {"key": "tier", "operator": "In", "values": ["frontend", "cache"]},
                       {"key": "env", "operator": "NotIn", "values": ["dev"]},
                       {"key": "owner", "operator": "Exists"},
                       {"key": "canary", "operator": "DoesNotExist", "values": []}]}
                    """, LabelSelectorSpec.class);

            LabelSelector s = LabelSelector.fromSpec(spec);

            assertThat(s.format()).isEqualTo("app=web,!canary,env notin (dev),owner,tier in (cache,frontend)");
            assertThat(s.matches(Map.of("app", "web", "tier", "cache", "owner", "me")))
                    .isTrue();
        }

        @Test
        void nullSpecIsNothingAndEmptySpecIsEverything() {
            assertThat(LabelSelector.fromSpec(null).isNothing()).isTrue();
            assertThat(LabelSelector.fromSpec(new LabelSelectorSpec(null, null)).isEverything())
                    .isTrue();
            assertThat(LabelSelector.fromSpec(new LabelSelectorSpec(Map.of(), List.of()))
                            .isEverything())
                    .isTrue();
        }

        @Test
        void unknownOperatorIsRejectedNamingTheEntry() {
            LabelSelectorSpec spec =
                    new LabelSelectorSpec(null, List.of(new LabelSelectorSpec.Expression("a", "Gt", List.of("1"))));

            assertThatThrownBy(spec::toSelector)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("matchExpressions[0].operator: \"Gt\" is not a valid label selector operator");
        }

        @Test
        void inWithoutValuesIsRejected() {
            LabelSelectorSpec spec =
                    new LabelSelectorSpec(null, List.of(new LabelSelectorSpec.Expression("a", "In", null)));

            assertThatThrownBy(spec::toSelector)
                    .hasMessageStartingWith("matchExpressions[0]: ")
                    .hasMessageContaining("values set can't be empty");
        }
    }
}
