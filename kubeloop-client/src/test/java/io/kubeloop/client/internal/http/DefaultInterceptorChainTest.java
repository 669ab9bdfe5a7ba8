package io.kubeloop.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.client.http.ApiRequest;
import io.kubeloop.client.http.ApiResponse;
import io.kubeloop.client.http.Interceptor;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DefaultInterceptorChainTest {

    private static final ApiRequest REQUEST = ApiRequest.get(URI.create("https://127.0.0.1:6443/api"));
    /** A terminal stage answering 200 with an unread streaming-style body. */
    private static final Interceptor SERVER =
            chain -> new ApiResponse(chain.request(), 200, Map.of(), new ByteArrayInputStream("{}".getBytes()));

    static final class DoubleProceeder implements Interceptor {
        @Override
        public ApiResponse intercept(Chain chain) {
            chain.proceed(chain.request());
            return chain.proceed(chain.request());
        }
    }

    @Test
    void interceptorsRunInOrderAndSeeChangedRequests() {
        Interceptor first = chain -> chain.proceed(chain.request().withHeader("X-Order", "first"));
        Interceptor second = chain -> chain.proceed(
                chain.request().withHeader("X-Order", chain.request().header("X-Order") + ",second"));
        ApiResponse response = DefaultInterceptorChain.run(List.of(first, second, SERVER), REQUEST);
        assertThat(response.request().header("X-Order")).isEqualTo("first,second");
    }

    @Test
    void proceedingTwiceWithoutClosingNamesTheOffender() {
        assertThatThrownBy(() -> DefaultInterceptorChain.run(List.of(new DoubleProceeder(), SERVER), REQUEST))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "interceptor DoubleProceeder (#0) called proceed() again without closing the previous response");
    }

    @Test
    void proceedingAgainAfterClosingIsAllowed() {
        Interceptor retrying = chain -> {
            chain.proceed(chain.request()).close();
            return chain.proceed(chain.request());
        };
        assertThat(DefaultInterceptorChain.run(List.of(retrying, SERVER), REQUEST)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void returningNullNamesTheOffender() {
        Interceptor broken = chain -> null;
        assertThatThrownBy(() -> DefaultInterceptorChain.run(List.of(broken, SERVER), REQUEST))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("(#0) returned null");
    }
}
