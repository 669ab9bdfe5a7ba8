package io.kubeloop.controller.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {

    private static final InvolvedObject FOO =
            new InvolvedObject("samplecontroller.k8s.io/v1alpha1", "Foo", "ns", "foo", "u1", "7");
    private static final Instant T0 = Instant.parse("2026-11-25T20:00:00Z");

    private final EventCorrelator correlator = new EventCorrelator();

    private static EventCorrelator.Pending event(String reason, String message, Instant at) {
        return new EventCorrelator.Pending(FOO, "foo-controller", EventType.NORMAL, reason, message, at);
    }

    @Test
    void thirtyIdenticalEventsMakeOneEventCountedToTwentyFiveAndFiveDropped() {
        List<EventCorrelator.Decision> decisions = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            decisions.add(correlator.correlate(event("Synced", "Foo synced successfully", T0)));
        }

        assertThat(decisions.getFirst()).isInstanceOf(EventCorrelator.Create.class);
        String name = ((EventCorrelator.Create) decisions.getFirst()).name();
        assertThat(name).startsWith("foo.");
        for (int i = 1; i < 25; i++) {
            assertThat(decisions.get(i)).isInstanceOfSatisfying(EventCorrelator.Count.class, c -> {
                assertThat(c.name()).isEqualTo(name);
            });
        }
        assertThat(((EventCorrelator.Count) decisions.get(24)).count()).isEqualTo(25);
        assertThat(decisions.subList(25, 30)).allMatch(d -> d instanceof EventCorrelator.Drop);
    }

    @Test
    void theSpamFilterLetsOneMoreThroughEveryFiveMinutes() {
        for (int i = 0; i < 25; i++) {
            correlator.correlate(event("Synced", "m", T0));
        }
        assertThat(correlator.correlate(event("Synced", "m", T0.plusSeconds(299))))
                .isInstanceOf(EventCorrelator.Drop.class);
        assertThat(correlator.correlate(
                        event("Synced", "m", T0.plus(Duration.ofMinutes(5)).plusSeconds(1))))
                .isInstanceOf(EventCorrelator.Count.class);
    }

    @Test
    void tenDifferentMessagesForOneReasonAreCombined() {
        List<EventCorrelator.Decision> decisions = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            decisions.add(correlator.correlate(event("Failed", "attempt " + i + " failed", T0.plusSeconds(i))));
        }

        assertThat(decisions.subList(0, 9)).allMatch(d -> d instanceof EventCorrelator.Create);
        assertThat(decisions.get(9))
                .isInstanceOfSatisfying(
                        EventCorrelator.Create.class,
                        c -> assertThat(c.event().message())
                                .isEqualTo("(combined from similar events): attempt 9 failed"));
        String combined = ((EventCorrelator.Create) decisions.get(9)).name();
        assertThat(decisions.get(11)).isInstanceOfSatisfying(EventCorrelator.Count.class, c -> {
            assertThat(c.name()).isEqualTo(combined);
            assertThat(c.count()).isEqualTo(3);
            assertThat(c.event().message()).isEqualTo("(combined from similar events): attempt 11 failed");
        });
    }

    @Test
    void similarMessagesOlderThanTenMinutesAreNotCombined() {
        for (int i = 0; i < 9; i++) {
            correlator.correlate(event("Failed", "attempt " + i, T0));
        }
        assertThat(correlator.correlate(event("Failed", "attempt 9", T0.plus(Duration.ofMinutes(11)))))
                .isInstanceOfSatisfying(
                        EventCorrelator.Create.class,
                        c -> assertThat(c.event().message()).isEqualTo("attempt 9"));
    }

    @Test
    void twoNewEventsAtTheSameInstantGetDifferentNames() {
        EventCorrelator.Decision synced = correlator.correlate(event("Synced", "ok", T0));
        EventCorrelator.Decision scaled = correlator.correlate(event("Scaled", "to 3", T0));

        assertThat(((EventCorrelator.Create) synced).name()).isNotEqualTo(((EventCorrelator.Create) scaled).name());
    }
}
