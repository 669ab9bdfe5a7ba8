package io.kubeloop.controller.client;

import io.kubeloop.api.selector.LabelSelector;
import java.util.Map;
import java.util.Objects;

/**
 * One restriction of a {@link Reader#list} or {@link Client#deleteAllOf}: controller-runtime's
 * {@code client.ListOption}s. Import the factories statically:
 *
 * {@snippet :
 * List<Pod> onNode = client.list(Pod.class, inNamespace("shop"), matchingField("spec.nodeName", "node-1"));
 * }
 *
 * <p>Immutable.
 */
public sealed interface ListOption {

    /**
     * Only objects in this namespace.
     *
     * @param namespace a namespace name
     */
    record InNamespace(String namespace) implements ListOption {
        public InNamespace {
            Objects.requireNonNull(namespace, "namespace");
            if (namespace.isEmpty()) {
                throw new IllegalArgumentException("inNamespace needs a namespace name; leave the option out for all");
            }
        }
    }

    /**
     * Only objects whose labels match.
     *
     * @param selector the label selector
     */
    record MatchingLabels(LabelSelector selector) implements ListOption {
        public MatchingLabels {
            Objects.requireNonNull(selector, "selector");
        }
    }

    /**
     * Only objects whose {@code field} equals {@code value}. A cache answers it from a field index
     * registered with {@link Cache#indexField} ({@code metadata.name} and {@code metadata.namespace}
     * need none); the API server from its field selectors.
     *
     * @param field the field path, e.g. {@code spec.nodeName}
     * @param value the value it must have
     */
    record MatchingField(String field, String value) implements ListOption {
        public MatchingField {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(value, "value");
            if (field.isEmpty()) {
                throw new IllegalArgumentException("matchingField needs a field path");
            }
        }
    }

    /**
     * Only objects in {@code namespace}.
     *
     * @param namespace a namespace name
     * @return the option
     */
    static ListOption inNamespace(String namespace) {
        return new InNamespace(namespace);
    }

    /**
     * Only objects carrying every one of these labels with these values.
     *
     * @param labels label names and values
     * @return the option
     */
    static ListOption matchingLabels(Map<String, String> labels) {
        return new MatchingLabels(LabelSelector.matchingLabels(labels));
    }

    /**
     * Only objects matching {@code selector}.
     *
     * @param selector a label selector, e.g. {@code LabelSelector.parse("tier in (web, api)")}
     * @return the option
     */
    static ListOption matchingLabels(LabelSelector selector) {
        return new MatchingLabels(selector);
    }

    /**
     * Only objects whose {@code field} equals {@code value}.
     *
     * @param field the field path
     * @param value its value
     * @return the option
     */
    static ListOption matchingField(String field, String value) {
        return new MatchingField(field, value);
    }
}
