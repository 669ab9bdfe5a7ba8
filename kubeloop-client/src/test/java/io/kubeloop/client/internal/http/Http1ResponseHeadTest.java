package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Http1ResponseHeadTest {

    private static InputStream wire(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void readsStatusAndRepeatedHeadersWithCaseInsensitiveNamesAndStopsAtTheBody() throws IOException {
        InputStream in =
                wire("HTTP/1.1 410 Gone\r\nContent-Type: application/json\r\nWarning: a\r\nwarning:  b \r\n\r\n{}");
        Http1ResponseHead head = Http1ResponseHead.read(in);
        assertThat(head.status()).isEqualTo(410);
        assertThat(head.header("content-type")).isEqualTo("application/json");
        assertThat(head.headers().get("WARNING")).containsExactly("a", "b");
        assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("{}");
    }

    @Test
    void interimResponsesAreSkipped() throws IOException {
        Http1ResponseHead head =
                Http1ResponseHead.read(wire("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nA: 1\r\n\r\n"));
        assertThat(head.status()).isEqualTo(200);
        assertThat(head.header("a")).isEqualTo("1");
    }

    @Test
    void somethingOtherThanHttp11IsRefusedWithWhatArrived() {
        assertThatThrownBy(() -> Http1ResponseHead.read(wire("\u0000\u0000\u0012\u0004 h2 preface...\n")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("not an HTTP/1.1 response");
        assertThatThrownBy(() -> Http1ResponseHead.read(wire("HTTP/1.1 2xx OK\r\n\r\n")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("malformed status line");
        assertThatThrownBy(() -> Http1ResponseHead.read(wire("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("malformed header field");
    }

    @Test
    void aClosedConnectionSaysSoInOneLine() {
        assertThatThrownBy(() -> Http1ResponseHead.read(wire("")))
                .isInstanceOf(EOFException.class)
                .hasMessage("the server closed the connection without a response");
        assertThatThrownBy(() -> Http1ResponseHead.read(wire("HTTP/1.1 200 OK\r\nA: 1")))
                .isInstanceOf(EOFException.class)
                .hasMessage("the connection ended inside the response head");
    }

    @Test
    void anEndlessHeadIsCutOff() {
        String huge = "HTTP/1.1 200 OK\r\n" + "X: y\r\n".repeat(Http1ResponseHead.MAX_HEAD / 6 + 10) + "\r\n";
        assertThatThrownBy(() -> Http1ResponseHead.read(wire(huge)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("longer than");
    }
}
