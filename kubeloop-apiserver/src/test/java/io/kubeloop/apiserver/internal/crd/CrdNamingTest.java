package io.kubeloop.apiserver.internal.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrdNamingTest {

    private static final CrdSpec.Names NONE = new CrdSpec.Names("", "", "", "", List.of(), List.of());

    private static CrdSpec.Names names(String plural, String kind, String... shortNames) {
        return new CrdSpec.Names(
                plural, plural.substring(0, plural.length() - 1), kind, kind + "List", List.of(shortNames), List.of());
    }

    @Test
    void namesWithoutConflictsAreAcceptedAsRequested() {
        CrdNaming.Result r =
                CrdNaming.calculate(names("foos", "Foo", "fo"), NONE, List.of(names("bars", "Bar")), List.of());
        assertThat(r.accepted()).isTrue();
        assertThat(r.reason()).isEqualTo("NoConflicts");
        assertThat(r.names()).isEqualTo(names("foos", "Foo", "fo"));
    }

    @Test
    void pluralTakenByAnotherCrdOfTheGroupIsAPluralConflictKeepingThePreviousName() {
        CrdNaming.Result r =
                CrdNaming.calculate(names("foos", "Foo"), NONE, List.of(names("foos", "Other")), List.of());
        assertThat(r.accepted()).isFalse();
        assertThat(r.reason()).isEqualTo("PluralConflict");
        assertThat(r.message()).isEqualTo("\"foos\" is already in use");
        assertThat(r.names().plural()).isEmpty();
        assertThat(r.names().kind()).isEqualTo("Foo");
    }

    @Test
    void shortNameAndKindConflictsAreReported() {
        CrdNaming.Result shortName =
                CrdNaming.calculate(names("foos", "Foo", "x"), NONE, List.of(names("bars", "Bar", "x")), List.of());
        assertThat(shortName.reason()).isEqualTo("ShortNamesConflict");
        assertThat(shortName.names().shortNames()).isEmpty();
        CrdNaming.Result kind =
                CrdNaming.calculate(names("foos", "Bar"), NONE, List.of(names("bars", "Bar")), List.of());
        assertThat(kind.reason()).isEqualTo("KindConflict");
    }

    @Test
    void builtInResourcesOfTheGroupConflictToo() {
        var apps = new ResourceRegistry().inGroupVersion("apps", "v1");
        CrdNaming.Result r = CrdNaming.calculate(names("deployments", "MyDeployment"), NONE, List.of(), apps);
        assertThat(r.accepted()).isFalse();
        assertThat(r.reason()).isEqualTo("PluralConflict");
    }
}
