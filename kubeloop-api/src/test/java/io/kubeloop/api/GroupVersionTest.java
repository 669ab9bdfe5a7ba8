package io.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GroupVersionTest {

    @Test
    void coreVersionHasNoGroup() {
        GroupVersion gv = GroupVersion.parse("v1");

        assertThat(gv).isEqualTo(GroupVersion.CORE_V1);
        assertThat(gv.isCore()).isTrue();
        assertThat(gv.apiVersion()).isEqualTo("v1");
        assertThat(gv.toString()).isEqualTo("v1");
    }

    @Test
    void groupVersionRoundTrips() {
        GroupVersion gv = GroupVersion.parse("apps/v1");

        assertThat(gv).isEqualTo(new GroupVersion("apps", "v1"));
        assertThat(gv.isCore()).isFalse();
        assertThat(GroupVersion.parse(gv.apiVersion())).isEqualTo(gv);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/v1", "apps/", "a/b/c", "/"})
    void parseRejectsMalformedApiVersions(String text) {
        assertThatThrownBy(() -> GroupVersion.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void derivesKindAndResource() {
        GroupVersion apps = GroupVersion.parse("apps/v1");

        assertThat(apps.withKind("Deployment")).isEqualTo(new GroupVersionKind("apps", "v1", "Deployment"));
        assertThat(apps.withResource("deployments")).isEqualTo(new GroupVersionResource("apps", "v1", "deployments"));
    }
}
