package io.kubeloop.controller.internal.desired;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuantitiesTest {

    private static String canonical(String text) {
        return Quantities.canonical(text).orElse("<none>");
    }

    @Test
    void decimalQuantitiesTakeTheLargestSuffixThatLosesNothing() {
        assertThat(canonical("1000m")).isEqualTo("1");
        assertThat(canonical("1.5")).isEqualTo("1500m");
        assertThat(canonical("0.5")).isEqualTo("500m");
        assertThat(canonical("100m")).isEqualTo("100m");
        assertThat(canonical("1000")).isEqualTo("1k");
        assertThat(canonical("1500")).isEqualTo("1500");
        assertThat(canonical("15000")).isEqualTo("15k");
        assertThat(canonical("2000M")).isEqualTo("2G");
        assertThat(canonical("+1")).isEqualTo("1");
        assertThat(canonical("-1000m")).isEqualTo("-1");
        assertThat(canonical("1.")).isEqualTo("1");
        assertThat(canonical(".5")).isEqualTo("500m");
        assertThat(canonical("1E")).isEqualTo("1E");
    }

    @Test
    void valuesRoundUpToNanoUnits() {
        assertThat(canonical("0.1n")).isEqualTo("1n");
        assertThat(canonical("0.0000000001")).isEqualTo("1n");
    }

    @Test
    void binaryQuantitiesStayBinaryWhenWholeAndAtLeastOneKibi() {
        assertThat(canonical("1.5Gi")).isEqualTo("1536Mi");
        assertThat(canonical("1024Mi")).isEqualTo("1Gi");
        assertThat(canonical("512Ki")).isEqualTo("512Ki");
        assertThat(canonical("2.5Ki")).isEqualTo("2560");
        assertThat(canonical("0.5Ki")).as("below 1024: decimal").isEqualTo("512");
        assertThat(canonical("1.1Ki")).as("not whole: decimal").isEqualTo("1126400m");
    }

    @Test
    void exponentQuantitiesKeepAnExponentOfAMultipleOfThree() {
        assertThat(canonical("1e3")).isEqualTo("1e3");
        assertThat(canonical("1000e0")).isEqualTo("1e3");
        assertThat(canonical("15E2")).isEqualTo("1500");
        assertThat(canonical("12e6")).isEqualTo("12e6");
    }

    @Test
    void zeroIsZeroInEveryForm() {
        assertThat(canonical("0")).isEqualTo("0");
        assertThat(canonical("0Mi")).isEqualTo("0");
        assertThat(canonical("-0.0")).isEqualTo("0");
    }

    @Test
    void textThatIsNoQuantityHasNoCanonicalForm() {
        assertThat(Quantities.canonical("")).isEmpty();
        assertThat(Quantities.canonical("abc")).isEmpty();
        assertThat(Quantities.canonical("10.0.0.1")).isEmpty();
        assertThat(Quantities.canonical("1x")).isEmpty();
        assertThat(Quantities.canonical("e3")).isEmpty();
        assertThat(Quantities.canonical("1e")).isEmpty();
        assertThat(Quantities.canonical("nginx:1.25")).isEmpty();
    }
}
