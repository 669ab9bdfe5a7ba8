package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

class HandoffBodyTest {

    private static final Flow.Subscription NONE = new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
    };

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void thePartsAreJoinedInOrderAndHandedOverOnlyOnce() throws Exception {
        HandoffBody body = new HandoffBody();
        body.onSubscribe(NONE);
        body.onNext(List.of(bytes("{\"kind\":"), bytes("\"List\"")));
        body.onNext(List.of(bytes("}")));
        body.onComplete();

        HandoffBody done = body.getBody().toCompletableFuture().get();
        assertThat(new String(done.take(), StandardCharsets.UTF_8)).isEqualTo("{\"kind\":\"List\"}");
        assertThat(done.take()).as("nothing kept after the hand-over").isEmpty();
    }

    @Test
    void aFailedBodyFailsTheFuture() {
        HandoffBody body = new HandoffBody();
        body.onSubscribe(NONE);
        body.onNext(List.of(bytes("partial")));
        body.onError(new IOException("connection reset"));

        assertThat(body.getBody().toCompletableFuture())
                .failsWithin(Duration.ZERO)
                .withThrowableOfType(ExecutionException.class)
                .withMessageContaining("connection reset");
    }
}
