package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class PrefetchingInputStreamTest {

    /** Polls the condition for up to 5 seconds. */
    private static boolean eventually(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(42).nextBytes(b);
        return b;
    }

    @Test
    void handsOnEveryByteInOrderThenTheEndAndItsThreadEnds() throws IOException {
        byte[] data = random(PrefetchingInputStream.CHUNK * (PrefetchingInputStream.DEPTH + 3) + 12_345);
        PrefetchingInputStream in = new PrefetchingInputStream(new ByteArrayInputStream(data));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Random sizes = new Random(7);
        out.write(in.read());
        byte[] buf = new byte[100_000];
        for (int n = in.read(buf, 0, 1 + sizes.nextInt(buf.length));
                n >= 0;
                n = in.read(buf, 0, 1 + sizes.nextInt(buf.length))) {
            out.write(buf, 0, n);
        }
        assertThat(out.toByteArray()).isEqualTo(data);
        assertThat(in.read()).isEqualTo(-1);
        assertThat(eventually(() -> !in.readerAlive())).isTrue();
    }

    @Test
    void aFailureOfTheSourceArrivesAfterTheBytesBeforeIt() throws IOException {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        };
        byte[] data = random(1000);
        PrefetchingInputStream in =
                new PrefetchingInputStream(new SequenceInputStream(new ByteArrayInputStream(data), failing));
        assertThat(in.readNBytes(1000)).isEqualTo(data);
        assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessage("connection reset");
    }

    @Test
    void closeStopsTheReaderEvenWhenNobodyReadsAndLaterReadsSeeTheEnd() throws IOException {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                Arrays.fill(b, off, off + len, (byte) 'x');
                return len;
            }
        };
        PrefetchingInputStream in = new PrefetchingInputStream(endless);
        assertThat(in.read()).isEqualTo('x');
        Thread.onSpinWait();
        in.close();
        assertThat(eventually(() -> !in.readerAlive())).isTrue();
        assertThat(in.read()).isEqualTo(-1);
    }
}
