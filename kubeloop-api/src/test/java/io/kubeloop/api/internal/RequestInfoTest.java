package io.kubeloop.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube-apiserver's request-info resolution of the verb and name it authorizes: the {@code watch} parameter as
 * apimachinery decodes a boolean, a named GET staying a {@code get}, the legacy {@code watch/} paths, a field
 * selector naming the object only when the list options decode, and the paths it cannot resolve.
 */
class RequestInfoTest {

    /** {@code a=1&b=2} as the first decoded value per key ({@code %20} a space, {@code %3D} an equals sign). */
    private static Map<String, String> query(String q) {
        Map<String, String> out = new LinkedHashMap<>();
        if (q == null || q.isEmpty()) {
            return out;
        }
        for (String pair : q.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            out.putIfAbsent(key, URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return out;
    }

    @ParameterizedTest(name = "GET {0}?{1} is {2} named ''{3}''")
    @CsvSource(delimiter = '|', emptyValue = "", textBlock = """
            /api/v1/namespaces/ns/pods             | watch=true                                   | watch | ''
            /api/v1/namespaces/ns/pods             | watch=                                       | watch | ''
            /api/v1/namespaces/ns/pods             | watch=FALSE                                  | list  | ''
            /api/v1/namespaces/ns/pods             | watch=0                                      | list  | ''
            /api/v1/namespaces/ns/pods             | watch=%20false                               | watch | ''
            /api/v1/namespaces/ns/pods             | watch=false&watch=true                       | list  | ''
            /api/v1/namespaces/ns/pods/web         | watch=true                                   | get   | web
            /api/v1/watch/namespaces/ns/pods/web   | ''                                           | watch | web
            /api/v1/watch/namespaces/ns/pods       | fieldSelector=metadata.name%3Dweb            | watch | ''
            /api/v1/namespaces/ns/pods             | watch=1&fieldSelector=metadata.name%3D%3Dweb | watch | web
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name%3Db,metadata.name%3Da | list | a
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name%3Da%2Fb          | list  | ''
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name%3D..             | list  | ''
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name%3Dweb&labelSelector=%3Dx | list | ''
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name%3Dweb&limit=x     | list  | ''
            /api/v1/namespaces/ns/pods             | watch=1&fieldSelector=metadata.name%3Dweb&timeoutSeconds=5s | watch | ''
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name%3Dweb&limit=-1    | list  | web
            /api/v1/namespaces/ns/pods             | fieldSelector=metadata.name                  | list  | ''
            """)
    void resolvesTheVerbAndNameOfAGet(String path, String q, String verb, String name) {
        RequestInfo info = RequestInfo.resolve("GET", path, query(q)::get);
        assertThat(List.of(info.verb(), info.name())).containsExactly(verb, name);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GET    | /api/v1/watch
            GET    | /apis/apps/v1/watch
            GET    | /api/v1/proxy
            """)
    void aSpecialVerbWithNothingAfterItCannotBeResolved(String method, String path) {
        assertThatThrownBy(() -> RequestInfo.resolve(method, path, k -> null))
                .isInstanceOf(RequestInfo.Unresolvable.class)
                .hasMessage("unable to determine kind and namespace from url");
    }
}
