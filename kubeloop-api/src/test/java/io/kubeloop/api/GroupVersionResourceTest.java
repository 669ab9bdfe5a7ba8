package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GroupVersionResourceTest {

    @Test
    void parsesResourceVersionGroup() {
        GroupVersionResource gvr = GroupVersionResource.parse("deployments.v1.apps");

        assertThat(gvr).isEqualTo(new GroupVersionResource("apps", "v1", "deployments"));
        assertThat(gvr.format()).isEqualTo("deployments.v1.apps");
        assertThat(gvr.toString()).isEqualTo("deployments.v1.apps");
        assertThat(gvr.groupVersion()).isEqualTo(GroupVersion.parse("apps/v1"));
    }

    @Test
    void resourceVersionIsCore() {
        assertThat(GroupVersionResource.parse("pods.v1")).isEqualTo(new GroupVersionResource("", "v1", "pods"));
    }

    @Test
    void parseRejectsBareResource() {
        assertThatThrownBy(() -> GroupVersionResource.parse("pods")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void groupResourceParsesAndFormats() {
        GroupResource gr = GroupResource.parse("deployments.apps");

        assertThat(gr).isEqualTo(new GroupResource("apps", "deployments"));
        assertThat(gr.toString()).isEqualTo("deployments.apps");
        assertThat(GroupResource.parse("pods")).isEqualTo(new GroupResource("", "pods"));
        assertThat(GroupResource.parse("leases.coordination.k8s.io").group()).isEqualTo("coordination.k8s.io");
        assertThat(gr.withVersion("v1")).isEqualTo(GroupVersionResource.parse("deployments.v1.apps"));
        assertThat(GroupVersionResource.parse("deployments.v1.apps").groupResource())
                .isEqualTo(gr);
    }

    @Test
    void blankResourceIsRejected() {
        assertThatThrownBy(() -> new GroupResource("apps", " ")).isInstanceOf(IllegalArgumentException.class);
    }
}
