package io.kubeloop.samples.samplecontroller;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.AuthProvider;
import io.kubeloop.client.config.ClientConfig;
import io.kubeloop.client.config.SslContextBuilder;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sample-controller's RBAC, written from what it watches and what its reconciler declares. Nothing
 * starts, so no server is needed; the integration test in kubeloop-it checks that a real run uses no
 * more than this.
 */
class SampleControllerRbacTest {

    private final KubeClient client = KubeClient.create(
            new ClientConfig(
                    URI.create("https://127.0.0.1:9"),
                    SslContextBuilder.create().insecureSkipTlsVerify().build(),
                    null,
                    AuthProvider.none(),
                    "default",
                    null,
                    "nowhere"),
            ClientOptions.defaults());

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void theSampleControllerReadsFoosAndDeploymentsWritesDeploymentsFooStatusAndFooFinalizersAndRecordsEvents() {
        try (SampleController sample = new SampleController(client)) {
            String yaml = sample.rbac("sample-controller", "sample-system").yaml();

            assertThat(yaml).isEqualTo("""
                    apiVersion: v1
                    kind: ServiceAccount
                    metadata:
                      name: sample-controller-controller-manager
                      namespace: sample-system
                    ---
                    apiVersion: rbac.authorization.k8s.io/v1
                    kind: ClusterRole
                    metadata:
                      name: sample-controller-manager-role
                    rules:
                    - apiGroups:
                      - ""
                      resources:
                      - events
                      verbs:
                      - create
                      - patch
                    - apiGroups:
                      - apps
                      resources:
                      - deployments
                      verbs:
                      - create
                      - get
                      - list
                      - update
                      - watch
                    - apiGroups:
                      - samplecontroller.k8s.io
                      resources:
                      - foos
                      verbs:
                      - get
                      - list
                      - watch
                    - apiGroups:
                      - samplecontroller.k8s.io
                      resources:
                      - foos/finalizers
                      - foos/status
                      verbs:
                      - update
                    ---
                    apiVersion: rbac.authorization.k8s.io/v1
                    kind: ClusterRoleBinding
                    metadata:
                      name: sample-controller-manager-rolebinding
                    roleRef:
                      apiGroup: rbac.authorization.k8s.io
                      kind: ClusterRole
                      name: sample-controller-manager-role
                    subjects:
                    - kind: ServiceAccount
                      name: sample-controller-controller-manager
                      namespace: sample-system
                    """);
        }
    }
}
