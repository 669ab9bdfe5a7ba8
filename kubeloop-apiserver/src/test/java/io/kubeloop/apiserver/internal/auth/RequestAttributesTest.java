package io.kubeloop.apiserver.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The request-info resolution kube-apiserver's authorizers see: verb, group, resource, subresource, namespace, name. */
class RequestAttributesTest {

    private static final UserInfo U = UserInfo.of("u", List.of());

    @ParameterizedTest(name = "{0} {1}{2}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "GET    | /api/v1/namespaces/ns/pods             | -                         | list             | ''   | pods        | ''      | ns | ''",
                "GET    | /api/v1/namespaces/ns/pods             | ?watch=true               | watch            | ''   | pods        | ''      | ns | ''",
                "GET    | /api/v1/namespaces/ns/pods/p           | -                         | get              | ''   | pods        | ''      | ns | p",
                "GET    | /api/v1/namespaces/ns/pods             | ?fieldSelector=metadata.name=p | list        | ''   | pods        | ''      | ns | p",
                "GET    | /apis/apps/v1/watch/namespaces/ns/deployments | -                  | watch            | apps | deployments | ''      | ns | ''",
                "PUT    | /apis/apps/v1/namespaces/ns/deployments/d/scale | -                | update           | apps | deployments | scale   | ns | d",
                "POST   | /api/v1/namespaces/ns/serviceaccounts/sa/token | -                 | create           | ''   | serviceaccounts | token | ns | sa",
                "DELETE | /api/v1/namespaces/ns/configmaps        | -                         | deletecollection | ''   | configmaps  | ''      | ns | ''",
                "DELETE | /api/v1/namespaces/ns/configmaps/c      | -                         | delete           | ''   | configmaps  | ''      | ns | c",
                "PATCH  | /api/v1/nodes/n/status                  | -                         | patch            | ''   | nodes       | status  | '' | n",
                "GET    | /api/v1/namespaces/ns                   | -                         | get              | ''   | namespaces  | ''      | ns | ns",
                "PUT    | /api/v1/namespaces/ns/finalize          | -                         | update           | ''   | namespaces  | finalize | ns | ns",
                "GET    | /apis/rbac.authorization.k8s.io/v1/clusterroles | -                 | list             | rbac.authorization.k8s.io | clusterroles | '' | '' | ''",
            })
    void resolvesResourceRequests(
            String method,
            String path,
            String query,
            String verb,
            String group,
            String resource,
            String subresource,
            String namespace,
            String name) {
        Map<String, String> q = query == null
                ? Map.of()
                : Map.of(query.substring(1, query.indexOf('=')), query.substring(query.indexOf('=') + 1));
        RequestAttributes a = RequestAttributes.of(U, method, path, q::get);
        assertThat(a.resourceRequest()).isTrue();
        assertThat(List.of(a.verb(), a.apiGroup(), a.resource(), a.subresource(), a.namespace(), a.name()))
                .containsExactly(verb, group, resource, subresource, namespace, name);
    }

    @Test
    void discoveryHealthAndOtherPathsAreNonResourceRequestsWithTheMethodAsVerb() {
        for (String path :
                List.of("/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/healthz", "/openapi/v3")) {
            RequestAttributes a = RequestAttributes.of(U, "GET", path, k -> null);
            assertThat(a.resourceRequest()).as(path).isFalse();
            assertThat(a.verb()).isEqualTo("get");
            assertThat(a.path()).isEqualTo(path);
        }
        assertThat(RequestAttributes.of(U, "POST", "/logs", k -> null).verb()).isEqualTo("post");
    }
}
