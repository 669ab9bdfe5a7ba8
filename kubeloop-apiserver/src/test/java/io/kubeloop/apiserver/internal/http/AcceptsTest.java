package io.kubeloop.apiserver.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.internal.http.Accepts.Target;
import org.junit.jupiter.api.Test;

/** Accept negotiation for resource URLs, range by range as kube-apiserver orders and accepts them. */
class AcceptsTest {

    private static Target target(String header) {
        return Accepts.parse(header).target();
    }

    @Test
    void noHeaderOrPlainJsonIsTheObject() {
        assertThat(target(null)).isEqualTo(Target.OBJECT);
        assertThat(target("")).isEqualTo(Target.OBJECT);
        assertThat(target("application/json")).isEqualTo(Target.OBJECT);
        assertThat(target("*/*")).isEqualTo(Target.OBJECT);
        assertThat(target("application/*")).isEqualTo(Target.OBJECT);
        assertThat(target("application/json; charset=utf-8")).isEqualTo(Target.OBJECT);
        assertThat(target("application/yaml, application/vnd.kubernetes.protobuf"))
                .isNull();
    }

    @Test
    void metaFormsNeedMetaGroupAndV1OrV1beta1() {
        Accepts pom = Accepts.parse("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1");
        Accepts list = Accepts.parse("application/json; as=PartialObjectMetadataList; v=v1beta1; g=meta.k8s.io");
        Accepts table = Accepts.parse("application/json;as=Table;v=v1;g=meta.k8s.io");

        assertThat(pom.target()).isEqualTo(Target.PARTIAL_OBJECT_METADATA);
        assertThat(pom.targetApiVersion()).isEqualTo("meta.k8s.io/v1");
        assertThat(list.target()).isEqualTo(Target.PARTIAL_OBJECT_METADATA_LIST);
        assertThat(list.targetApiVersion()).isEqualTo("meta.k8s.io/v1beta1");
        assertThat(table.target()).isEqualTo(Target.TABLE);
        assertThat(target("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v9"))
                .isNull();
        assertThat(target("application/json;as=PartialObjectMetadata;g=meta.k8s.io"))
                .isNull();
        assertThat(target("application/json;as=PartialObjectMetadata")).isNull();
        assertThat(target("application/json;g=meta.k8s.io;v=v1")).isNull();
        assertThat(target("application/json;as=Foo;g=meta.k8s.io;v=v1")).isNull();
        assertThat(target("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1;stream=x"))
                .isNull();
        assertThat(target("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1;stream=watch"))
                .isEqualTo(Target.PARTIAL_OBJECT_METADATA);
    }

    @Test
    void firstProducibleRangeWinsAfterOrderingByQAndSpecificity() {
        assertThat(target("application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
                        + "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"))
                .isEqualTo(Target.PARTIAL_OBJECT_METADATA_LIST);
        assertThat(target("application/json,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"))
                .isEqualTo(Target.OBJECT);
        assertThat(target("application/json;q=0.9,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"))
                .isEqualTo(Target.PARTIAL_OBJECT_METADATA);
        assertThat(target("*/*,application/json;as=Table;g=meta.k8s.io;v=v1")).isEqualTo(Target.TABLE);
        assertThat(target("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v9,application/json"))
                .isEqualTo(Target.OBJECT);
        assertThat(Accepts.parse("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1,"
                                + "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")
                        .targetVersion())
                .isEqualTo("v1beta1");
    }

    @Test
    void aggregatedDiscoveryIsReadApart() {
        Accepts a = Accepts.parse("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json");

        assertThat(a.aggregatedDiscovery()).isTrue();
        assertThat(a.aggregatedVersion()).isEqualTo("v2");
        assertThat(a.target()).isEqualTo(Target.OBJECT);
        assertThat(Accepts.parse("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
                        .acceptable())
                .isFalse();
    }
}
