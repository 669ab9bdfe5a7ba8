package io.kubeloop.api.selector;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A label selector: a conjunction of {@link LabelRequirement}s, apimachinery's {@code labels.Selector}.
 *
 * {@snippet :
 * LabelSelector s = LabelSelector.parse("app=web, tier in (frontend,cache), !canary");
 * s.matches(Map.of("app", "web", "tier", "cache"));   // true
 * s.format();                                          // "!canary,app=web,tier in (cache,frontend)"
 * }
 *
 * <p>The grammar is apimachinery's: {@code key=v}, {@code key==v}, {@code key!=v} (true when the
 * key is absent), {@code key in (a,b)}, {@code key notin (a,b)} (true when absent), {@code key}
 * (exists), {@code !key} (does not exist), {@code key>n} and {@code key<n} (integer comparison,
 * false when absent or not an integer); commas separate terms and mean AND; spaces, tabs and line
 * breaks between tokens are ignored. The empty string is {@link #everything()}.
 *
 * <p>Requirements are kept sorted by key (then by text) and values sorted, so {@link #format()} is
 * canonical and {@code parse(s.format()).equals(s)}. {@link #nothing()} is the one selector that
 * matches no labels; like apimachinery's it formats as the empty string, so it does not survive a
 * text round trip.
 *
 * <p>Immutable and thread-safe; {@link #matches} allocates nothing.
 *
 * @see <a href="https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors">Label selectors</a>
 */
public final class LabelSelector {

    private static final LabelSelector EVERYTHING = new LabelSelector(List.of(), false);
    private static final LabelSelector NOTHING = new LabelSelector(List.of(), true);

    /** Sorted by {@link LabelRequirement#ORDER}; empty for everything and nothing. */
    private final List<LabelRequirement> requirements;

    private final boolean nothing;

    private LabelSelector(List<LabelRequirement> requirements, boolean nothing) {
        this.requirements = requirements;
        this.nothing = nothing;
    }

    /** The selector that matches every label set (the empty selector). */
    public static LabelSelector everything() {
        return EVERYTHING;
    }

    /**
     * The selector that matches no label set: what a missing {@code spec.selector} means
     * (apimachinery's {@code labels.Nothing()}).
     */
    public static LabelSelector nothing() {
        return NOTHING;
    }

    /**
     * Parses selector text.
     *
     * @throws SelectorParseException when the text is malformed, naming the position
     */
    public static LabelSelector parse(String text) {
        Objects.requireNonNull(text, "text");
        return of(LabelSelectorParser.parse(text));
    }

    /** The conjunction of the given requirements. */
    public static LabelSelector of(LabelRequirement... requirements) {
        return of(List.of(requirements));
    }

    /** The conjunction of the given requirements. */
    public static LabelSelector of(Collection<LabelRequirement> requirements) {
        if (requirements.isEmpty()) {
            return EVERYTHING;
        }
        List<LabelRequirement> sorted = new ArrayList<>(requirements);
        sorted.sort(LabelRequirement.ORDER);
        return new LabelSelector(List.copyOf(sorted), false);
    }

    /**
     * {@code k1=v1,k2=v2,...}: matches label sets that contain all of {@code labels}
     * (apimachinery's {@code SelectorFromSet}).
     *
     * @throws IllegalArgumentException when a key or value is not a valid label key or value
     */
    public static LabelSelector matchingLabels(Map<String, String> labels) {
        List<LabelRequirement> reqs = new ArrayList<>(labels.size());
        labels.forEach((k, v) -> reqs.add(LabelRequirement.equal(k, v)));
        return of(reqs);
    }

    /**
     * The selector a {@code metav1.LabelSelector} (as in a Deployment's {@code spec.selector})
     * stands for: null is {@link #nothing()}, an empty spec is {@link #everything()}.
     *
     * @throws IllegalArgumentException for an unknown operator or an invalid key or value
     */
    public static LabelSelector fromSpec(LabelSelectorSpec spec) {
        return spec == null ? NOTHING : spec.toSelector();
    }

    /** A builder for a selector assembled in code. */
    public static Builder builder() {
        return new Builder();
    }

    /** True when every requirement holds for {@code labels}; always true for {@link #everything()}. */
    public boolean matches(Map<String, String> labels) {
        if (nothing) {
            return false;
        }
        for (int i = 0; i < requirements.size(); i++) {
            if (!requirements.get(i).matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** The requirements, sorted by key; empty for {@link #everything()} and {@link #nothing()}. */
    public List<LabelRequirement> requirements() {
        return requirements;
    }

    /** True for the selector that matches everything. */
    public boolean isEverything() {
        return !nothing && requirements.isEmpty();
    }

    /** True for {@link #nothing()}. */
    public boolean isNothing() {
        return nothing;
    }

    /**
     * The value {@code key} must have for a match, when a single {@code =}, {@code ==} or
     * one-value {@code in} requirement pins it (apimachinery's {@code RequiresExactMatch}); lets
     * an indexer look up instead of scanning.
     */
    public Optional<String> requiresExactMatch(String key) {
        for (LabelRequirement r : requirements) {
            if (r.key().equals(key)) {
                switch (r.operator()) {
                    case EQUALS, DOUBLE_EQUALS -> {
                        return Optional.of(r.values().getFirst());
                    }
                    case IN -> {
                        if (r.values().size() == 1) {
                            return Optional.of(r.values().getFirst());
                        }
                    }
                    case NOT_EQUALS, NOT_IN, EXISTS, DOES_NOT_EXIST, GREATER_THAN, LESS_THAN -> {}
                }
            }
        }
        return Optional.empty();
    }

    /** This selector with more requirements. */
    public LabelSelector and(LabelRequirement... more) {
        if (nothing) {
            return this;
        }
        List<LabelRequirement> all = new ArrayList<>(requirements);
        all.addAll(List.of(more));
        return of(all);
    }

    /**
     * The canonical text: requirements sorted by key, joined by {@code ,}, values sorted — the
     * form apimachinery's {@code String()} prints and a {@code labelSelector} query parameter takes.
     */
    public String format() {
        if (requirements.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (LabelRequirement r : requirements) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(r.format());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return nothing ? "<nothing>" : format();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelSelector other && nothing == other.nothing && requirements.equals(other.requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode() * 31 + (nothing ? 1 : 0);
    }

    /** Collects requirements for {@link LabelSelector}; not thread-safe. */
    public static final class Builder {
        private final List<LabelRequirement> requirements = new ArrayList<>();

        private Builder() {}

        /** Adds any requirement. */
        public Builder requirement(LabelRequirement r) {
            requirements.add(Objects.requireNonNull(r, "requirement"));
            return this;
        }

        public Builder equal(String key, String value) {
            return requirement(LabelRequirement.equal(key, value));
        }

        public Builder notEqual(String key, String value) {
            return requirement(LabelRequirement.notEqual(key, value));
        }

        public Builder in(String key, String... values) {
            return requirement(LabelRequirement.in(key, values));
        }

        public Builder notIn(String key, String... values) {
            return requirement(LabelRequirement.notIn(key, values));
        }

        public Builder exists(String key) {
            return requirement(LabelRequirement.exists(key));
        }

        public Builder doesNotExist(String key) {
            return requirement(LabelRequirement.doesNotExist(key));
        }

        public Builder greaterThan(String key, long n) {
            return requirement(LabelRequirement.greaterThan(key, n));
        }

        public Builder lessThan(String key, long n) {
            return requirement(LabelRequirement.lessThan(key, n));
        }

        /** Adds {@code key=value} for each entry. */
        public Builder matchingLabels(Map<String, String> labels) {
            labels.forEach(this::equal);
            return this;
        }

        public LabelSelector build() {
            return of(requirements);
        }
    }
}
