package io.kubeloop.api;

import static io.kubeloop.api.Condition.Status.FALSE;
import static io.kubeloop.api.Condition.Status.TRUE;
import static io.kubeloop.api.Condition.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ConditionsTest {

    private Instant now = Instant.parse("2026-01-02T03:04:05.678901Z");
    private final InstantSource clock = () -> now;

    private static Condition ready(Condition.Status status, String reason, String message) {
        return Condition.of("Ready", status, reason, message);
    }

    @Test
    void aNewConditionIsAppendedWithNowAtSecondsPrecision() {
        List<Condition> conditions = new ArrayList<>();

        assertThat(Conditions.setStatusCondition(conditions, ready(TRUE, "Available", "up"), clock))
                .isTrue();

        assertThat(conditions).singleElement().satisfies(c -> {
            assertThat(c.status()).isEqualTo(TRUE);
            assertThat(c.lastTransitionTime()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
        });
    }

    @Test
    void aNewConditionKeepsTheTransitionTimeItCarries() {
        List<Condition> conditions = new ArrayList<>();
        Instant given = Instant.parse("2025-05-05T05:05:05Z");

        Conditions.setStatusCondition(conditions, ready(TRUE, "Available", "up").withLastTransitionTime(given), clock);

        assertThat(conditions.getFirst().lastTransitionTime()).isEqualTo(given);
    }

    @Test
    void settingTheSameConditionAgainChangesNothingAndKeepsTheTime() {
        List<Condition> conditions = new ArrayList<>();
        Conditions.setStatusCondition(conditions, ready(TRUE, "Available", "up"), clock);
        Instant first = conditions.getFirst().lastTransitionTime();
        now = now.plus(Duration.ofMinutes(5));

        assertThat(Conditions.setStatusCondition(conditions, ready(TRUE, "Available", "up"), clock))
                .isFalse();
        assertThat(conditions.getFirst().lastTransitionTime()).isEqualTo(first);
    }

    @Test
    void reasonMessageAndObservedGenerationChangesKeepTheTransitionTime() {
        List<Condition> conditions = new ArrayList<>();
        Conditions.setStatusCondition(conditions, ready(TRUE, "Available", "up"), clock);
        Instant first = conditions.getFirst().lastTransitionTime();
        now = now.plus(Duration.ofMinutes(5));

        assertThat(Conditions.setStatusCondition(
                        conditions, ready(TRUE, "Scaled", "up at 3").withObservedGeneration(4), clock))
                .isTrue();

        Condition c = conditions.getFirst();
        assertThat(c.reason()).isEqualTo("Scaled");
        assertThat(c.message()).isEqualTo("up at 3");
        assertThat(c.observedGeneration()).isEqualTo(4);
        assertThat(c.lastTransitionTime()).as("status unchanged").isEqualTo(first);
    }

    @Test
    void aStatusChangeSetsTheTransitionTimeToNowOrToTheOneGiven() {
        List<Condition> conditions = new ArrayList<>();
        Conditions.setStatusCondition(conditions, ready(TRUE, "Available", "up"), clock);
        now = now.plus(Duration.ofMinutes(5));

        assertThat(Conditions.setStatusCondition(conditions, ready(FALSE, "Unavailable", "down"), clock))
                .isTrue();
        assertThat(conditions.getFirst().lastTransitionTime()).isEqualTo(Instant.parse("2026-01-02T03:09:05Z"));

        Instant given = Instant.parse("2026-02-02T00:00:00Z");
        Conditions.setStatusCondition(conditions, ready(UNKNOWN, "Probing", "").withLastTransitionTime(given), clock);
        assertThat(conditions.getFirst().lastTransitionTime()).isEqualTo(given);
        assertThat(conditions).hasSize(1);
    }

    @Test
    void otherTypesAreLeftInPlace() {
        List<Condition> conditions = new ArrayList<>();
        Conditions.setStatusCondition(conditions, Condition.of("Progressing", TRUE, "Rolling", ""), clock);
        Conditions.setStatusCondition(conditions, ready(FALSE, "Starting", ""), clock);
        Conditions.setStatusCondition(conditions, ready(TRUE, "Available", ""), clock);

        assertThat(conditions).extracting(Condition::type).containsExactly("Progressing", "Ready");
        assertThat(conditions.getFirst().status()).isEqualTo(TRUE);
    }

    @Test
    void findRemoveAndTheStatusChecks() {
        List<Condition> conditions = new ArrayList<>();
        Conditions.setStatusCondition(conditions, ready(TRUE, "Available", ""), clock);
        Conditions.setStatusCondition(conditions, Condition.of("Degraded", FALSE, "AllGood", ""), clock);

        assertThat(Conditions.findStatusCondition(conditions, "Ready"))
                .map(Condition::reason)
                .hasValue("Available");
        assertThat(Conditions.findStatusCondition(conditions, "Missing")).isEmpty();
        assertThat(Conditions.findStatusCondition(null, "Ready")).isEmpty();
        assertThat(Conditions.isStatusConditionTrue(conditions, "Ready")).isTrue();
        assertThat(Conditions.isStatusConditionFalse(conditions, "Ready")).isFalse();
        assertThat(Conditions.isStatusConditionFalse(conditions, "Degraded")).isTrue();
        assertThat(Conditions.isStatusConditionTrue(conditions, "Missing")).isFalse();
        assertThat(Conditions.isStatusConditionFalse(conditions, "Missing")).isFalse();
        assertThat(Conditions.isStatusConditionPresentAndEqual(conditions, "Degraded", FALSE))
                .isTrue();
        assertThat(Conditions.isStatusConditionPresentAndEqual(conditions, "Degraded", UNKNOWN))
                .isFalse();

        assertThat(Conditions.removeStatusCondition(conditions, "Ready")).isTrue();
        assertThat(Conditions.removeStatusCondition(conditions, "Ready")).isFalse();
        assertThat(conditions).extracting(Condition::type).containsExactly("Degraded");
    }

    @Test
    void conditionsReadAndWriteMetav1Json() {
        Condition c = ready(TRUE, "Available", "").withLastTransitionTime(Instant.parse("2026-01-02T03:04:05.9Z"));

        JsonNode json = KubeJson.mapper().valueToTree(c);
        assertThat(json.toString())
                .isEqualTo("{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-02T03:04:05Z\","
                        + "\"reason\":\"Available\",\"message\":\"\"}");
        assertThat(KubeJson.mapper()
                        .valueToTree(c.withObservedGeneration(7))
                        .get("observedGeneration")
                        .asLong())
                .isEqualTo(7);

        Condition read = KubeJson.mapper()
                .readValue(
                        "{\"type\":\"Synced\",\"status\":\"Unknown\",\"observedGeneration\":3,"
                                + "\"lastTransitionTime\":\"2026-01-02T03:04:05Z\",\"reason\":\"Waiting\"}",
                        Condition.class);
        assertThat(read)
                .isEqualTo(new Condition("Synced", UNKNOWN, 3, Instant.parse("2026-01-02T03:04:05Z"), "Waiting", ""));
    }

    @Test
    void ofRefusesAnEmptyTypeOrReason() {
        assertThatThrownBy(() -> Condition.of("", TRUE, "Why", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type");
        assertThatThrownBy(() -> Condition.of("Ready", TRUE, "", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reason");
        assertThatThrownBy(() -> ready(TRUE, "Why", "").withObservedGeneration(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
