package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.json.KubeJson;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Quantities read, compare and print as apimachinery's {@code resource.Quantity} does. */
class QuantityTest {

    /** Value (as a plain decimal) and format of what ParseQuantity reads, rounding and capping included. */
    @ParameterizedTest(name = "{0} is {1} ({2})")
    @CsvSource({
        "0, 0, DECIMAL_SI",
        "0Ki, 0, BINARY_SI",
        "1Ki, 1024, BINARY_SI",
        "7Mi, 7340032, BINARY_SI",
        "3Ei, 3458764513820540928, BINARY_SI",
        "5n, 0.000000005, DECIMAL_SI",
        "4u, 0.000004, DECIMAL_SI",
        "3m, 0.003, DECIMAL_SI",
        "50k, 50000, DECIMAL_SI",
        "2P, 2000000000000000, DECIMAL_SI",
        "1E, 1000000000000000000, DECIMAL_SI",
        "12E, 12000000000000000000, DECIMAL_SI",
        "1E-3, 0.001, DECIMAL_EXPONENT",
        "1e3, 1000, DECIMAL_EXPONENT",
        "1.3E+6, 1300000, DECIMAL_EXPONENT",
        "0.5e-2, 0.005, DECIMAL_EXPONENT",
        "100.035k, 100035, DECIMAL_SI",
        "0.0005k, 0.5, DECIMAL_SI",
        "6.987654321G, 6987654321, DECIMAL_SI",
        "3.001n, 0.000000004, DECIMAL_SI",
        "1.1E-9, 0.000000002, DECIMAL_EXPONENT",
        "0.0000000001, 0.000000001, DECIMAL_SI",
        "0.00000012345, 0.000000124, DECIMAL_SI",
        "9Ei, 9223372036854775807, BINARY_SI",
        "100.035Ki, 102435.84, BINARY_SI",
        "0.5Mi, 524288, BINARY_SI",
        "0.000000000001Ki, 0.000000002, DECIMAL_SI",
        ".001, 0.001, DECIMAL_SI",
        "1., 1, DECIMAL_SI",
        "1.G, 1000000000, DECIMAL_SI",
        "+1, 1, DECIMAL_SI",
        "-3.001n, -0.000000004, DECIMAL_SI",
        "-9Ei, -9223372036854775807, BINARY_SI",
    })
    void readsAsParseQuantity(String text, String value, Quantity.Format format) {
        Quantity q = Quantity.parse(text);
        assertThat(q.value()).isEqualByComparingTo(new BigDecimal(value));
        assertThat(q.format()).isEqualTo(format);
        assertThat(q.toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "1.1.M",
                "1+1.0M",
                "0.1mi",
                "0.1am",
                "aoeu",
                ".5i",
                "1i",
                "-3.01i",
                "-3.01e-",
                " 1",
                "1 ",
                "Ki",
                "1e",
                "1e99999999999",
                "1e-2147483648"
            })
    void refusesWhatParseQuantityRefuses(String text) {
        assertThatThrownBy(() -> Quantity.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("quantities must match the regular expression");
    }

    /** The canonical form: an integer with the largest suffix that loses nothing. */
    @ParameterizedTest(name = "{0} is written {1}")
    @CsvSource({
        "1Ki, 1Ki",
        "1024Mi, 1Gi",
        "1000M, 1G",
        "1.5, 1500m",
        "0.1, 100m",
        "1.5Gi, 1536Mi",
        "300Mi, 300Mi",
        "307200Ki, 300Mi",
        "1025Ki, 1025Ki",
        "1536, 1536",
        "5000m, 5",
        "1.08, 1080m",
        "1080000000n, 1080m",
        "1500, 1500",
        "2000, 2k",
        "1000E, 1e21",
        "5000E, 5e21",
        ".001Ki, 1024m",
        ".000001Ki, 1024u",
        ".000000001Ki, 1024n",
        ".000000000001Ki, 2n",
        ".001e12, 1e9",
        "0.001e0, 1e-3",
        "1000e-12, 1e-9",
        "0.08e0, 80e-3",
        "300e6, 300e6",
        "00, 0",
        "0Mi, 0",
        "-1.5Gi, -1536Mi",
        "-9.01, -9010m",
        "-1Ki, -1Ki",
    })
    void writesTheCanonicalForm(String text, String canonical) {
        assertThat(Quantity.parse(text).canonical()).isEqualTo(canonical);
        assertThat(Quantity.parse(canonical).canonical()).isEqualTo(canonical);
    }

    @Test
    void madeFromNumbersWritesCanonically() {
        assertThat(Quantity.of(1024, Quantity.Format.BINARY_SI)).hasToString("1Ki");
        assertThat(Quantity.of(1234000, Quantity.Format.DECIMAL_SI)).hasToString("1234k");
        assertThat(Quantity.of(1000000, Quantity.Format.DECIMAL_EXPONENT)).hasToString("1e6");
        assertThat(Quantity.ofMillis(1)).hasToString("1m");
        assertThat(Quantity.ofMillis(1000)).hasToString("1");
        assertThat(Quantity.of(new BigDecimal("1.024"), Quantity.Format.BINARY_SI))
                .hasToString("1024m");
    }

    @Test
    void equalityAndOrderAreByValue() {
        assertThat(Quantity.parse("1")).isEqualTo(Quantity.parse("1000m")).isEqualTo(Quantity.parse("1e0"));
        assertThat(Quantity.parse("1").hashCode())
                .isEqualTo(Quantity.parse("1000m").hashCode());
        assertThat(Quantity.parse("0")).isEqualTo(Quantity.parse("0Ki"));
        assertThat(Quantity.parse("100m")).isGreaterThan(Quantity.parse("50m"));
        assertThat(Quantity.parse("10000T")).isGreaterThan(Quantity.parse("100Gi"));
        assertThat(List.of(Quantity.parse("1Gi"), Quantity.parse("1G"), Quantity.parse("2")).stream()
                        .sorted()
                        .map(Quantity::toString))
                .containsExactly("2", "1G", "1Gi");
    }

    @Test
    void unitsAndMillisRoundAwayFromZero() {
        assertThat(Quantity.parse("1.5").longValue()).isEqualTo(2);
        assertThat(Quantity.parse("-1.5").longValue()).isEqualTo(-2);
        assertThat(Quantity.parse("1Ki").longValue()).isEqualTo(1024);
        assertThat(Quantity.parse("250m").milliValue()).isEqualTo(250);
        assertThat(Quantity.parse("1n").milliValue()).isEqualTo(1);
        assertThat(Quantity.parse("2").milliValue()).isEqualTo(2000);
    }

    /** JSON carries the text as written; numbers and padded strings are read as Kubernetes reads them. */
    @Test
    void jsonKeepsTheTextAndReadsNumbers() {
        record Limits(Quantity cpu, Quantity memory) {}
        Limits l = KubeJson.mapper().readValue("{\"cpu\":\" 1500m\",\"memory\":1024}", Limits.class);
        assertThat(l.cpu()).isEqualTo(Quantity.parse("1.5"));
        assertThat(l.memory().value()).isEqualByComparingTo("1024");
        assertThat(KubeJson.mapper().writeValueAsString(new Limits(Quantity.parse("1000m"), Quantity.parse("1Gi"))))
                .isEqualTo("{\"cpu\":\"1000m\",\"memory\":\"1Gi\"}");
    }
}
