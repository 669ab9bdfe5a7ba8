package io.kubeloop.api.selector;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a label selector in object specs ({@code metav1.LabelSelector}), as in a
 * Deployment's {@code spec.selector}:
 *
 * <pre>{"matchLabels": {"app": "web"},
 *  "matchExpressions": [{"key": "tier", "operator": "In", "values": ["frontend"]}]}</pre>
 *
 * Read it with Jackson ({@code KubeJson.mapper().treeToValue(node, LabelSelectorSpec.class)}, or
 * {@code convertValue} from a fabric8 {@code LabelSelector}) and evaluate it with
 * {@link #toSelector()}. Immutable when its collections are; thread-safe then.
 *
 * @param matchLabels {@code key=value} terms; may be null
 * @param matchExpressions set-based terms; may be null
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record LabelSelectorSpec(Map<String, String> matchLabels, List<Expression> matchExpressions) {

    /**
     * One {@code matchExpressions} entry.
     *
     * @param key the label key
     * @param operator {@code In}, {@code NotIn}, {@code Exists} or {@code DoesNotExist}
     * @param values the values; non-empty for In/NotIn, empty for Exists/DoesNotExist
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Expression(String key, String operator, List<String> values) {}

    /**
     * The selector this spec stands for (apimachinery's {@code LabelSelectorAsSelector}): an empty
     * spec matches everything.
     *
     * @throws IllegalArgumentException for an unknown operator or an invalid key or value, naming the entry
     */
    public LabelSelector toSelector() {
        List<LabelRequirement> reqs = new ArrayList<>();
        if (matchLabels != null) {
            matchLabels.forEach((k, v) -> reqs.add(LabelRequirement.equal(k, v)));
        }
        if (matchExpressions != null) {
            for (int i = 0; i < matchExpressions.size(); i++) {
                Expression e = matchExpressions.get(i);
                List<String> values = e.values() == null ? List.of() : e.values();
                LabelOperator op = switch (e.operator() == null ? "" : e.operator()) {
                    case "In" -> LabelOperator.IN;
                    case "NotIn" -> LabelOperator.NOT_IN;
                    case "Exists" -> LabelOperator.EXISTS;
                    case "DoesNotExist" -> LabelOperator.DOES_NOT_EXIST;
                    default ->
                        throw new IllegalArgumentException("matchExpressions[" + i + "].operator: \"" + e.operator()
                                + "\" is not a valid label selector operator");
                };
                try {
                    reqs.add(new LabelRequirement(e.key() == null ? "" : e.key(), op, values));
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException("matchExpressions[" + i + "]: " + ex.getMessage(), ex);
                }
            }
        }
        return LabelSelector.of(reqs);
    }
}
