package io.kubeloop.testing.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubeloop.api.DynamicObject;
import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.ResourceScope;
import io.kubeloop.api.errors.InvalidException;
import io.kubeloop.client.KubeClient;
import io.kubeloop.client.ResourceClient;
import io.kubeloop.testing.junit.EmbeddedApiServerTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CrdInstaller} creates CRDs from files, directories, class path resources and text, and returns
 * once the server serves them (custom resources can be created at once); a CRD that exists is brought to
 * the spec given; one the server refuses fails at once with its error; one that is not established in
 * time fails with a {@link CrdNotEstablishedException} naming it and its conditions' reasons.
 */
@EmbeddedApiServerTest(perTest = true, workloads = false)
class CrdInstallerTest {

    private static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    private static final Path DIR = Path.of("src/test/resources/crds");

    private static DynamicObject object(String apiVersion, String kind, String name, String spec) {
        return DynamicObject.parse(("{'apiVersion':'" + apiVersion + "','kind':'" + kind + "','metadata':{'name':'"
                        + name + "','namespace':'default'},'spec':" + spec + "}")
                .replace('\'', '"'));
    }

    @Test
    void aCrdFromAFileIsServedWhenInstallReturns(KubeClient client) {
        List<String> names = CrdInstaller.of(client).install(CrdSource.file(DIR.resolve("widgets.example.com.yaml")));
        assertThat(names).containsExactly("widgets.example.com");
        ResourceClient<DynamicObject> widgets = client.resource(
                        new GroupVersionResource("example.com", "v1", "widgets"),
                        ResourceScope.NAMESPACED,
                        DynamicObject.class)
                .inNamespace("default");
        widgets.create(object("example.com/v1", "Widget", "w", "{'size':3}"));
        assertThat(widgets.get("w").at("/spec/size").orElseThrow().asInt()).isEqualTo(3);
    }

    @Test
    void everyCrdOfADirectoryAndOfAClassPathResourceIsInstalled(KubeClient client) {
        assertThat(CrdInstaller.of(client).install(CrdSource.file(DIR)))
                .containsExactly("gadgets.example.com", "gizmos.example.com", "widgets.example.com");
        assertThat(CrdInstaller.of(client).install(CrdSource.resource("crds/gadgets-and-gizmos.yaml")))
                .containsExactly("gadgets.example.com", "gizmos.example.com");
    }

    @Test
    void anInstalledCrdIsBroughtToTheSpecGiven(KubeClient client) {
        CrdInstaller installer = CrdInstaller.of(client);
        installer.install(CrdSource.file(DIR.resolve("widgets.example.com.yaml")));
        String wider = TEXT.replace("maximum: 10", "maximum: 20");
        installer.install(CrdSource.text(wider));
        DynamicObject crd = client.resource(CRDS, ResourceScope.CLUSTER, DynamicObject.class)
                .get("widgets.example.com");
        assertThat(crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/maximum")
                        .orElseThrow()
                        .asInt())
                .isEqualTo(20);
    }

    @Test
    void aCrdTheServerRefusesFailsAtOnceWithItsError(KubeClient client) {
        String broken = TEXT.replace(
                "size: {type: integer, maximum: 10}",
                "size: {type: integer, x-kubernetes-validations: [{rule: 'self.nope > 1'}]}");
        assertThatThrownBy(() -> CrdInstaller.of(client).install(CrdSource.text(broken)))
                .isInstanceOf(InvalidException.class)
                .hasMessageContaining("x-kubernetes-validations[0].rule")
                .hasMessageContaining(
                        "compilation failed: ERROR: <input>:1:5: type 'int' does not support field" + " selection");
    }

    @Test
    void aNameConflictFailsWithTheCrdAndItsConditionsReasons(KubeClient client) {
        CrdInstaller installer = CrdInstaller.of(client).withTimeout(Duration.ofSeconds(2));
        installer.install(CrdSource.file(DIR.resolve("widgets.example.com.yaml")));
        String clash = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: sprockets.example.com}
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {kind: Sprocket, plural: sprockets, listKind: WidgetList}
                  versions:
                    - {name: v1, served: true, storage: true,
                       schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
                """;
        assertThatThrownBy(() -> installer.install(CrdSource.text(clash)))
                .isInstanceOfSatisfying(CrdNotEstablishedException.class, e -> {
                    assertThat(e.crd()).isEqualTo("sprockets.example.com");
                    assertThat(e.reasons()).containsExactly("ListKindConflict", "NotAccepted");
                    assertThat(e.getMessage())
                            .startsWith("CustomResourceDefinition sprockets.example.com was not established within"
                                    + " 2000 ms: NamesAccepted=False (ListKindConflict: ");
                });
    }

    @Test
    void somethingOtherThanACrdIsRefusedNamingWhere(KubeClient client) {
        assertThatThrownBy(() -> CrdInstaller.of(client)
                        .install(CrdSource.text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the CRD text: document 1 is a v1 ConfigMap, not an apiextensions.k8s.io/v1"
                        + " CustomResourceDefinition");
        assertThatThrownBy(() -> CrdInstaller.of(client).install(CrdSource.resource("crds/none.yaml")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no class path resource crds/none.yaml");
    }

    private static final String TEXT = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: widgets.example.com
            spec:
              group: example.com
              scope: Namespaced
              names: {kind: Widget, plural: widgets}
              versions:
                - name: v1
                  served: true
                  storage: true
                  schema:
                    openAPIV3Schema:
                      type: object
                      properties:
                        spec:
                          type: object
                          properties:
                            size: {type: integer, maximum: 10}
            """;
}
