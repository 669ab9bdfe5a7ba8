package io.kubeloop.apiserver.internal.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubeloop.api.json.KubeJson;
import io.kubeloop.apiserver.internal.registry.ResourceDefinition;
import io.kubeloop.apiserver.internal.registry.ResourceRegistry;
import io.kubeloop.time.Ticker;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A CRD schema's rules are compiled once while it is among the most recently used: again for an equal
 * schema (another version of the CRD, the CRD's status write, the controller serving it), not for a
 * schema whose rules have errors (the errors name where they were found), and again once forgotten.
 */
class CompiledSchemasTest {

    private static final ResourceDefinition CRDS = new ResourceRegistry()
            .find("apiextensions.k8s.io", "v1", "customresourcedefinitions")
            .orElseThrow();

    private static JsonNode schema(String rule) {
        return KubeJson.mapper()
                .readTree(("{'type':'object','properties':{'spec':{'type':'object',"
                                + "'properties':{'size':{'type':'integer'}},'x-kubernetes-validations':[{'rule':'"
                                + rule
                                + "'}]}}}")
                        .replace('\'', '"'));
    }

    @Test
    void anEqualSchemaIsCompiledOnce() {
        CompiledSchemas schemas = new CompiledSchemas(4);
        CompiledSchemas.Compiled first = schemas.compile(schema("self.size < 10"), "a");
        assertThat(first.errors()).isEmpty();
        assertThat(schemas.compile(schema("self.size < 10"), "b")).isSameAs(first);
        assertThat(schemas.compile(schema("self.size < 11"), "a")).isNotSameAs(first);
    }

    @Test
    void aSchemaWithRuleErrorsIsCompiledEachTimeItsErrorsNamingWhere() {
        CompiledSchemas schemas = new CompiledSchemas(4);
        assertThat(schemas.compile(schema("self.sise < 10"), "a").errors())
                .extracting(c -> c.field())
                .containsExactly("a.properties[spec].x-kubernetes-validations[0].rule");
        assertThat(schemas.compile(schema("self.sise < 10"), "b").errors())
                .extracting(c -> c.field())
                .containsExactly("b.properties[spec].x-kubernetes-validations[0].rule");
    }

    @Test
    void theLeastRecentlyUsedSchemaIsForgottenPastCapacity() {
        CompiledSchemas schemas = new CompiledSchemas(2);
        CompiledSchemas.Compiled a = schemas.compile(schema("self.size < 1"), "");
        CompiledSchemas.Compiled b = schemas.compile(schema("self.size < 2"), "");
        assertThat(schemas.compile(schema("self.size < 1"), "")).isSameAs(a);
        schemas.compile(schema("self.size < 3"), ""); // forgets b, the least recently used
        assertThat(schemas.compile(schema("self.size < 1"), "")).isSameAs(a);
        assertThat(schemas.compile(schema("self.size < 2"), "")).isNotSameAs(b);
    }

    @Test
    void theRulesValidationCompiledAreTheOnesServed() {
        CompiledSchemas schemas = new CompiledSchemas(4);
        ObjectNode crd = (ObjectNode) KubeJson.mapper()
                .readTree(("{'apiVersion':'apiextensions.k8s.io/v1',"
                                + "'kind':'CustomResourceDefinition','metadata':{'name':'foos.example.com'},"
                                + "'spec':{'group':'example.com','scope':'Namespaced','names':{'kind':'Foo','plural':'foos'},"
                                + "'versions':[{'name':'v1','served':true,'storage':true,'schema':{'openAPIV3Schema':"
                                + schema("self.size < 10") + "}},{'name':'v2','served':true,'storage':false,"
                                + "'schema':{'openAPIV3Schema':" + schema("self.size < 10") + "}}]}}")
                        .replace('\'', '"'));
        CrdValidation.admit(CRDS, crd, null, schemas);
        CrdSpec spec = CrdSpec.of(crd);
        List<ResourceDefinition> served =
                CrdDefinitions.of(spec, spec.names(), true, false, Ticker.system(), null, schemas);
        assertThat(served).hasSize(2);
        assertThat(served.get(0).validationRules())
                .isSameAs(served.get(1).validationRules())
                .isSameAs(schemas.compile(schema("self.size < 10"), "").rules());
    }
}
