package io.kubeloop.apiserver.internal.registry;

import io.kubeloop.api.GroupVersionResource;
import io.kubeloop.api.internal.CreateOnUpdate;
import io.kubeloop.apiserver.internal.cel.CelRules;
import io.kubeloop.apiserver.internal.printers.PrinterColumn;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the server knows about one served resource in one version: names for discovery, scope,
 * verbs, subresources and the semantics switches the resource layer consults. Built-in resources come
 * from {@link BuiltinResources}; custom resources from their CustomResourceDefinition.
 *
 * <p>Immutable and thread-safe.
 *
 * @param group API group, {@code ""} for core
 * @param version API version
 * @param plural resource name, e.g. {@code deployments}
 * @param kind e.g. {@code Deployment}
 * @param listKind e.g. {@code DeploymentList}
 * @param singular e.g. {@code deployment}
 * @param shortNames e.g. {@code deploy}
 * @param categories e.g. {@code all}
 * @param namespaced namespace-scoped or cluster-scoped
 * @param verbs discovery verbs, e.g. get list watch create update patch delete deletecollection
 * @param subresources {@code status}, {@code scale} where real
 * @param nameRule name validation
 * @param tracksGeneration whether {@code metadata.generation} is maintained
 * @param custom a custom resource (CRD-defined): update needs a resourceVersion, no strategic merge,
 *        any non-metadata change bumps generation
 * @param deleteReturnsObject DELETE answers the object (Pods, Services...) rather than a Status
 * @param fieldSelectors fields selectable besides {@code metadata.name}/{@code metadata.namespace}
 * @param columns Table columns after the name column
 * @param storageVersion the version objects are stored in (for custom resources with several versions)
 * @param scalePaths for the scale subresource: spec replicas, status replicas and label selector paths
 * @param schema the structural schema objects of this version are pruned, defaulted and validated with
 *        (custom resources whose CRD version declares one), or null
 * @param validationRules the schema's compiled {@code x-kubernetes-validations} (none when null)
 * @param conversion how objects move between the resource's versions ({@link ObjectConversion#NONE} when
 *        null)
 * @param terminating the defining CRD is being deleted: discovery shows {@code verbs} (without create,
 *        update, patch) while update and patch still work (finalizers must be removable) and create
 *        answers 405
 */
public record ResourceDefinition(
        String group,
        String version,
        String plural,
        String kind,
        String listKind,
        String singular,
        List<String> shortNames,
        List<String> categories,
        boolean namespaced,
        List<String> verbs,
        Set<String> subresources,
        NameRule nameRule,
        boolean tracksGeneration,
        boolean custom,
        boolean deleteReturnsObject,
        Set<String> fieldSelectors,
        List<PrinterColumn> columns,
        String storageVersion,
        ScalePaths scalePaths,
        StructuralSchema schema,
        CelRules validationRules,
        ObjectConversion conversion,
        boolean terminating) {

    /** The eight verbs of a normal resource. */
    public static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    public ResourceDefinition {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(plural, "plural");
        Objects.requireNonNull(kind, "kind");
        listKind = listKind == null ? kind + "List" : listKind;
        singular = singular == null ? kind.toLowerCase(Locale.ROOT) : singular;
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        verbs = List.copyOf(verbs);
        subresources = Set.copyOf(subresources);
        fieldSelectors = Set.copyOf(fieldSelectors);
        columns = List.copyOf(columns);
        storageVersion = storageVersion == null ? version : storageVersion;
        validationRules = validationRules == null ? CelRules.none() : validationRules;
        conversion = conversion == null ? ObjectConversion.NONE : conversion;
    }

    /** A definition without schema that is not terminating (built-ins). */
    public ResourceDefinition(
            String group,
            String version,
            String plural,
            String kind,
            String listKind,
            String singular,
            List<String> shortNames,
            List<String> categories,
            boolean namespaced,
            List<String> verbs,
            Set<String> subresources,
            NameRule nameRule,
            boolean tracksGeneration,
            boolean custom,
            boolean deleteReturnsObject,
            Set<String> fieldSelectors,
            List<PrinterColumn> columns,
            String storageVersion,
            ScalePaths scalePaths) {
        this(
                group,
                version,
                plural,
                kind,
                listKind,
                singular,
                shortNames,
                categories,
                namespaced,
                verbs,
                subresources,
                nameRule,
                tracksGeneration,
                custom,
                deleteReturnsObject,
                fieldSelectors,
                columns,
                storageVersion,
                scalePaths,
                null,
                null,
                null,
                false);
    }

    /** Paths (dotted, e.g. {@code .spec.replicas}) the scale subresource reads and writes. */
    public record ScalePaths(String specReplicas, String statusReplicas, String labelSelector) {}

    /** {@code group/version}, or {@code version} for core. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The store's id for this resource (shared by all versions): {@code group/plural}. */
    public String storageId() {
        return group + "/" + plural;
    }

    /** {@code plural} or {@code plural.group}: how errors name the resource. */
    public String qualifiedResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /** {@code Kind} or {@code Kind.group}: how Invalid errors name the kind. */
    public String qualifiedKind() {
        return group.isEmpty() ? kind : kind + "." + group;
    }

    /** The resource as a GVR. */
    public GroupVersionResource gvr() {
        return new GroupVersionResource(group, version, plural);
    }

    /** Whether {@code sub} ({@code status}, {@code scale}) is served. */
    public boolean hasSubresource(String sub) {
        return subresources.contains(sub);
    }

    /**
     * Whether a PUT of a missing object creates it ({@link io.kubeloop.api.internal.CreateOnUpdate}): some
     * built-in resources; never a custom resource.
     */
    public boolean createsOnUpdate() {
        return !custom && CreateOnUpdate.allowed(group, plural);
    }

    /** Whether a verb is allowed (while terminating: everything but create). */
    public boolean allows(String verb) {
        return terminating ? !verb.equals("create") : verbs.contains(verb);
    }

    /** This definition with other verbs (e.g. a terminating CRD's). */
    public ResourceDefinition withVerbs(List<String> newVerbs) {
        return new ResourceDefinition(
                group,
                version,
                plural,
                kind,
                listKind,
                singular,
                shortNames,
                categories,
                namespaced,
                newVerbs,
                subresources,
                nameRule,
                tracksGeneration,
                custom,
                deleteReturnsObject,
                fieldSelectors,
                columns,
                storageVersion,
                scalePaths,
                schema,
                validationRules,
                conversion,
                terminating);
    }
}
