package io.kubeloop.apiserver.internal.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** kube-controller-manager's rolling-update arithmetic, case by case. */
class RolloutMathTest {

    private static JsonNode deployment(String strategy) {
        return KubeJson.mapper().readTree("{\"spec\":{\"strategy\":" + strategy + "}}");
    }

    @ParameterizedTest(name = "{0} of {1} replicas: surge {2}, unavailable {3}")
    @CsvSource(delimiter = '|', textBlock = """
            {"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}} | 10 | 3 | 2
            {"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}} | 1  | 1 | 0
            {"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":0}}          | 5  | 0 | 1
            {"type":"RollingUpdate","rollingUpdate":{"maxSurge":2,"maxUnavailable":9}}          | 3  | 2 | 3
            {"type":"RollingUpdate","rollingUpdate":{"maxSurge":"50%","maxUnavailable":"50%"}}  | 3  | 2 | 1
            {"type":"RollingUpdate"}                                                            | 4  | 1 | 1
            {"type":"Recreate"}                                                                 | 4  | 0 | 0
            {"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":1}}          | 0  | 1 | 0
            """)
    void surgeRoundsUpUnavailableRoundsDownAndBothZeroMeansOneUnavailable(
            String strategy, int replicas, int surge, int unavailable) {
        assertThat(RolloutMath.limits(deployment(strategy), replicas))
                .isEqualTo(new RolloutMath.Limits(surge, unavailable));
    }

    @ParameterizedTest(name = "desired {0}, surge {1}, all {2}, new {3} -> {4}")
    @CsvSource({
        "4, 1, 4, 0, 1", // one above desired while the old four run
        "4, 1, 5, 1, 1", // at the ceiling: wait for old Pods to go
        "4, 1, 3, 1, 3", // two old Pods gone: room for two more
        "4, 0, 4, 0, 0", // no surge: old Pods must go first
        "3, 1, 0, 0, 3", // a fresh Deployment gets everything at once
        "3, 5, 2, 2, 3", // never above desired
    })
    void theNewReplicaSetGrowsWithinDesiredPlusSurge(int desired, int surge, int all, int newReplicas, int expected) {
        assertThat(RolloutMath.newReplicaSetReplicas(desired, surge, all, newReplicas))
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "all {0}, desired {1}, unavailable {2}, new {3}/{4} available -> {5}")
    @CsvSource({
        "5, 4, 0, 1, 1, 1", // the surged Pod is available: one old Pod may go
        "5, 4, 0, 1, 0, 0", // not yet available: nothing may go
        "4, 4, 1, 0, 0, 1",
        "6, 4, 1, 2, 0, 1",
    })
    void oldPodsGoOnlyWhileEnoughStayAvailable(
            int all, int desired, int unavailable, int newReplicas, int newAvailable, int expected) {
        assertThat(RolloutMath.oldScaleDownBudget(all, desired, unavailable, newReplicas, newAvailable))
                .isEqualTo(expected);
    }
}
