package io.kubeloop.apiserver.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.FieldValidation;
import org.junit.jupiter.api.Test;

class WriteContextTest {

    private static String manager(String fieldManager, String userAgent) {
        return new WriteContext(fieldManager, userAgent, false, FieldValidation.WARN, false).updateManager();
    }

    @Test
    void explicitFieldManagerWins() {
        assertThat(manager("mine", "kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd"))
                .isEqualTo("mine");
    }

    @Test
    void userAgentPrefixBeforeTheFirstSlashIsTheManager() {
        assertThat(manager(null, "kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd"))
                .isEqualTo("kubectl");
        assertThat(manager("", "Java-http-client/25")).isEqualTo("Java-http-client");
        assertThat(manager(null, "no slash at all")).isEqualTo("no slash at all");
    }

    @Test
    void nonPrintableCharactersAreDroppedAndTheNameIsCutAt128Bytes() {
        assertThat(manager(null, "ku\tbe\u0000ctl\u200b/v1")).isEqualTo("kubectl");
        assertThat(manager(null, "é".repeat(70) + "/x")).isEqualTo("é".repeat(64));
    }

    @Test
    void noUserAgentMeansUnknown() {
        assertThat(manager(null, null)).isEqualTo("unknown");
        assertThat(manager(null, "/v1")).isEqualTo("unknown");
    }
}
