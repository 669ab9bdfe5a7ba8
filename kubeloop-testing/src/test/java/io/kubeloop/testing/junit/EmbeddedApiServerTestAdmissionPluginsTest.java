package io.kubeloop.testing.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.errors.ForbiddenException;
import io.kubeloop.apiserver.AdmissionPlugin;
import io.kubeloop.apiserver.EmbeddedApiServer;
import io.kubeloop.client.ClientOptions;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.config.KubeConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @EmbeddedApiServerTest(admissionPlugins = OWNER_REFERENCES_PERMISSION_ENFORCEMENT)} starts the server
 * with that plugin enforcing: a user (outside {@code system:masters}) who may create ConfigMaps is refused a
 * child ConfigMap whose controller reference blocks its owner's deletion until it may {@code update}
 * {@code configmaps/finalizers}.
 */
@EmbeddedApiServerTest(workloads = false, admissionPlugins = AdmissionPlugin.OWNER_REFERENCES_PERMISSION_ENFORCEMENT)
class EmbeddedApiServerTestAdmissionPluginsTest {

    @TempDir
    Path dir;

    private static DynamicObject role(String name, String resource, String verb) {
        return DynamicObject.parse("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                + "\"metadata\":{\"name\":\"" + name + "\"},\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\""
                + resource + "\"],\"verbs\":[\"" + verb + "\"]}]}");
    }

    private static DynamicObject binding(String role, String user) {
        return DynamicObject.parse("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                + "\"metadata\":{\"name\":\"" + role + "-" + user + "\"},\"roleRef\":{\"apiGroup\":"
                + "\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\"" + role + "\"},\"subjects\":[{\"kind\":"
                + "\"User\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"" + user + "\"}]}");
    }

    @Test
    void aChildThatBlocksItsOwnersDeletionNeedsUpdateOnTheOwnersFinalizers(EmbeddedApiServer server, KubeClient admin)
            throws Exception {
        DynamicObject owner = admin.resource("configmaps")
                .inNamespace("default")
                .create(DynamicObject.parse(
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"owner\"}}"));
        admin.resource("roles").inNamespace("default").create(role("cm", "configmaps", "create"));
        admin.resource("rolebindings").inNamespace("default").create(binding("cm", "ctl"));
        Path file = Files.writeString(dir.resolve("ctl"), server.clientCertificateKubeconfig("ctl", List.of()));
        DynamicObject child = DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"
                + "\"name\":\"child\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"name\":\"owner\",\"uid\":\"" + owner.metadata().uid() + "\",\"controller\":true,"
                + "\"blockOwnerDeletion\":true}]}}");
        try (KubeClient ctl = KubeClient.create(
                KubeConfigLoader.builder().kubeconfig(file).build().clientConfig(), ClientOptions.defaults())) {

            assertThatThrownBy(() ->
                            ctl.resource("configmaps").inNamespace("default").create(child))
                    .isInstanceOf(ForbiddenException.class)
                    .hasMessageContaining("configmaps \"child\" is forbidden: cannot set blockOwnerDeletion if an "
                            + "ownerReference refers to a resource you can't set finalizers on: , <nil>");

            admin.resource("roles")
                    .inNamespace("default")
                    .create(role("finalizers", "configmaps/finalizers", "update"));
            admin.resource("rolebindings").inNamespace("default").create(binding("finalizers", "ctl"));
            assertThat(ctl.resource("configmaps")
                            .inNamespace("default")
                            .create(child)
                            .metadata()
                            .name())
                    .isEqualTo("child");
        }
    }
}
