package io.kubeloop.controller.internal.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.controller.rbac.ApiAccess;
import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A request's RBAC attributes from its method and URL, as the API server's request-info resolver derives them. */
class RequestAttributesTest {

    private static ApiAccess of(String method, String pathAndQuery) {
        return RequestAttributes.of(method, URI.create("https://127.0.0.1:6443" + pathAndQuery));
    }

    @ParameterizedTest(name = "{0} {1} is {2} {3}/{4}/{5} in ''{6}'' named ''{7}''")
    @CsvSource(delimiter = '|', emptyValue = "", textBlock = """
            GET    | /api/v1/namespaces/shop/pods/web                       | get              | ''   | pods        | ''       | shop | web
            HEAD   | /api/v1/namespaces/shop/pods/web                       | get              | ''   | pods        | ''       | shop | web
            GET    | /api/v1/namespaces/shop/pods                           | list             | ''   | pods        | ''       | shop | ''
            GET    | /api/v1/pods                                           | list             | ''   | pods        | ''       | ''   | ''
            GET    | /api/v1/namespaces/shop/pods?watch=true                | watch            | ''   | pods        | ''       | shop | ''
            GET    | /api/v1/namespaces/shop/pods?watch=1                   | watch            | ''   | pods        | ''       | shop | ''
            GET    | /api/v1/namespaces/shop/pods?watch=false               | list             | ''   | pods        | ''       | shop | ''
            GET    | /api/v1/namespaces/shop/pods?watch=0                   | list             | ''   | pods        | ''       | shop | ''
            GET    | /api/v1/watch/namespaces/shop/pods                     | watch            | ''   | pods        | ''       | shop | ''
            GET    | /api/v1/watch/namespaces/shop/pods/web                 | watch            | ''   | pods        | ''       | shop | web
            GET    | /apis/apps/v1/namespaces/shop/deployments?fieldSelector=metadata.name%3Dweb | list | apps | deployments | '' | shop | web
            GET    | /apis/apps/v1/deployments?watch=true&fieldSelector=metadata.name%3D%3Dweb   | watch | apps | deployments | '' | '' | web
            GET    | /apis/apps/v1/deployments?fieldSelector=metadata.name%21%3Dweb              | list | apps | deployments | '' | '' | ''
            POST   | /apis/apps/v1/namespaces/shop/deployments              | create           | apps | deployments | ''       | shop | ''
            PUT    | /apis/apps/v1/namespaces/shop/deployments/web          | update           | apps | deployments | ''       | shop | web
            PATCH  | /apis/apps/v1/namespaces/shop/deployments/web          | patch            | apps | deployments | ''       | shop | web
            DELETE | /apis/apps/v1/namespaces/shop/deployments/web          | delete           | apps | deployments | ''       | shop | web
            DELETE | /apis/apps/v1/namespaces/shop/deployments              | deletecollection | apps | deployments | ''       | shop | ''
            PUT    | /apis/samplecontroller.k8s.io/v1alpha1/namespaces/shop/foos/a/status | update | samplecontroller.k8s.io | foos | status | shop | a
            GET    | /apis/apps/v1/namespaces/shop/deployments/web/scale    | get              | apps | deployments | scale    | shop | web
            GET    | /api/v1/namespaces                                     | list             | ''   | namespaces  | ''       | ''   | ''
            GET    | /api/v1/namespaces/shop                                | get              | ''   | namespaces  | ''       | shop | shop
            PUT    | /api/v1/namespaces/shop/status                         | update           | ''   | namespaces  | status   | shop | shop
            PUT    | /api/v1/namespaces/shop/finalize                       | update           | ''   | namespaces  | finalize | shop | shop
            GET    | /api/v1/nodes/n1                                       | get              | ''   | nodes       | ''       | ''   | n1
            GET    | /api/v1/namespaces/shop/pods/web/proxy/metrics         | get              | ''   | pods        | proxy    | shop | web
            GET    | /api/v1/proxy/namespaces/shop/pods/web/metrics         | proxy            | ''   | pods        | ''       | shop | web
            POST   | /apis/coordination.k8s.io/v1/namespaces/kube-system/leases | create       | coordination.k8s.io | leases | '' | kube-system | ''
            """)
    void aResourceRequestHasTheVerbResourceAndObjectTheServerAuthorizes(
            String method,
            String path,
            String verb,
            String group,
            String resource,
            String subresource,
            String namespace,
            String name) {
        assertThat(of(method, path))
                .isEqualTo(new ApiAccess.Resource(verb, group, resource, subresource, namespace, name));
    }

    @ParameterizedTest(name = "{0} {1} is the non-resource request {2} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GET  | /version          | get
            GET  | /api              | get
            GET  | /api/v1           | get
            GET  | /apis             | get
            GET  | /apis/apps        | get
            GET  | /apis/apps/v1     | get
            GET  | /healthz/ping     | get
            POST | /logs             | post
            GET  | /openapi/v3       | get
            """)
    void aPathOutsideTheResourceApiIsANonResourceRequestWithTheMethodAsVerb(String method, String path, String verb) {
        assertThat(of(method, path)).isEqualTo(new ApiAccess.NonResource(verb, path));
    }
}
