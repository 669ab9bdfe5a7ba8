package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GroupVersionKindTest {

    @Test
    void parsesKindVersionGroup() {
        GroupVersionKind gvk = GroupVersionKind.parse("Deployment.v1.apps");

        assertThat(gvk).isEqualTo(new GroupVersionKind("apps", "v1", "Deployment"));
        assertThat(gvk.format()).isEqualTo("Deployment.v1.apps");
        assertThat(gvk.apiVersion()).isEqualTo("apps/v1");
        assertThat(gvk.toString()).isEqualTo("apps/v1, Kind=Deployment");
    }

    @Test
    void dottedGroupStaysWhole() {
        GroupVersionKind gvk = GroupVersionKind.parse("Lease.v1.coordination.k8s.io");

        assertThat(gvk.group()).isEqualTo("coordination.k8s.io");
        assertThat(GroupVersionKind.parse(gvk.format())).isEqualTo(gvk);
    }

    @Test
    void kindVersionIsCore() {
        assertThat(GroupVersionKind.parse("Pod.v1")).isEqualTo(new GroupVersionKind("", "v1", "Pod"));
        assertThat(GroupVersionKind.parse("Pod.v1").format()).isEqualTo("Pod.v1");
    }

    @Test
    void ofReadsApiVersionAndKind() {
        assertThat(GroupVersionKind.of("apps/v1", "Deployment"))
                .isEqualTo(GroupVersionKind.parse("Deployment.v1.apps"));
        assertThat(GroupVersionKind.of("v1", "Pod").groupVersion()).isEqualTo(GroupVersion.CORE_V1);
    }

    @Test
    void parseRejectsBareKindAndBlankParts() {
        assertThatThrownBy(() -> GroupVersionKind.parse("Deployment")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupVersionKind.parse(".v1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GroupVersionKind("apps", "", "Deployment"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void groupKindParsesAndFormats() {
        GroupKind gk = GroupKind.parse("Deployment.apps");

        assertThat(gk).isEqualTo(new GroupKind("apps", "Deployment"));
        assertThat(gk.toString()).isEqualTo("Deployment.apps");
        assertThat(GroupKind.parse("Pod")).isEqualTo(new GroupKind("", "Pod"));
        assertThat(GroupKind.parse("Pod").toString()).isEqualTo("Pod");
        assertThat(gk.withVersion("v1")).isEqualTo(GroupVersionKind.parse("Deployment.v1.apps"));
        assertThat(GroupVersionKind.parse("Deployment.v1.apps").groupKind()).isEqualTo(gk);
    }
}
