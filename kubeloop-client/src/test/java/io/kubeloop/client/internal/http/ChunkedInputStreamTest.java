package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

class ChunkedInputStreamTest {

    private static InputStream chunked(String wire) {
        return new ChunkedInputStream(new ByteArrayInputStream(wire.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void returnsOnlyTheChunksDataDroppingExtensionsAndTrailers() throws IOException {
        InputStream in =
                chunked("5;name=value\r\nhello\r\n19\r\n, world, in two chunks...\r\n0\r\nX-Trailer: 1\r\n\r\n");
        assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1))
                .isEqualTo("hello, world, in two chunks...");
        assertThat(in.read()).isEqualTo(-1);
    }

    @Test
    void acceptsBareLineFeedsAsLineEnds() throws IOException {
        assertThat(new String(chunked("3\nabc\n0\n\n").readAllBytes(), StandardCharsets.ISO_8859_1))
                .isEqualTo("abc");
    }

    @Test
    void handsOutAChunksDataBeforeTheLineEndAfterItArrives() throws Exception {
        // Jetty sends a chunk's closing CRLF together with the next chunk's size line: a reader that
        // waited for it would hold every watch event back until the next one.
        SlowSource server = new SlowSource();
        InputStream in = new ChunkedInputStream(server);
        server.send("11\r\n{\"type\":\"ADDED\"}\n");
        byte[] buf = new byte[64];
        int n = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> in.read(buf, 0, buf.length));
        assertThat(new String(buf, 0, n, StandardCharsets.ISO_8859_1)).isEqualTo("{\"type\":\"ADDED\"}\n");
        server.send("\r\n2\r\nok\r\n0\r\n\r\n");
        server.end();
        assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("ok");
    }

    /** A connection that hands out what was sent so far and blocks for more, as a socket does. */
    private static final class SlowSource extends InputStream {
        private final BlockingQueue<byte[]> sent = new LinkedBlockingQueue<>();
        private byte[] current = new byte[0];
        private int pos;

        void send(String s) {
            sent.add(s.getBytes(StandardCharsets.ISO_8859_1));
        }

        void end() {
            sent.add(new byte[0]);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos == current.length) {
                try {
                    current = sent.take();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                pos = 0;
                if (current.length == 0) {
                    sent.add(current);
                    return -1;
                }
            }
            int n = Math.min(len, current.length - pos);
            System.arraycopy(current, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    @Test
    void aConnectionEndingInsideAChunkIsAnErrorNotAShortBody() {
        InputStream in = chunked("a\r\nabc");
        assertThatThrownBy(in::readAllBytes).isInstanceOf(EOFException.class).hasMessageContaining("inside a chunk");
    }

    @Test
    void aConnectionEndingBeforeTheLastChunkIsAnError() {
        InputStream in = chunked("3\r\nabc\r\n");
        assertThatThrownBy(in::readAllBytes).isInstanceOf(EOFException.class).hasMessageContaining("between chunks");
    }

    @Test
    void malformedSizeLinesAndMissingLineEndsAreErrors() {
        assertThatThrownBy(() -> chunked("zz\r\nabc\r\n0\r\n\r\n").readAllBytes())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("malformed chunk size line: zz");
        assertThatThrownBy(() -> chunked("3\r\nabcX3\r\nabc\r\n0\r\n\r\n").readAllBytes())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not followed by CRLF");
    }
}
