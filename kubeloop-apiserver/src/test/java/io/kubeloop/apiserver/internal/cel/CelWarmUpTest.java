package io.kubeloop.apiserver.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The background warm-up exercises CEL for real: its rules compile, and hold on a create and an update. */
class CelWarmUpTest {

    @Test
    void warmUpRulesCompileAndHoldOnCreateAndUpdate() {
        assertThat(CelWarmUp.run()).isEmpty();
    }
}
