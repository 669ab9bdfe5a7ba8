package io.kubeloop.codegen.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A record being declared for an object schema (the kind's record or a nested one): its name, enclosing
 * record, Javadoc text, components, nested types and type annotations, and the names already taken in it.
 *
 * <p>Invariants: component names are unique case-insensitively (so the {@code with} methods differ too);
 * nested type names are unique case-insensitively and differ from every enclosing record's name, as Java
 * requires. Mutable and not thread-safe: built and rendered by one {@link ModelWriter}.
 */
final class RecordDecl implements TypeDecl {
    final String name;
    final RecordDecl parent;
    final String javadoc;
    final List<Component> components = new ArrayList<>();
    final List<TypeDecl> nested = new ArrayList<>();
    final Set<String> componentNames = new HashSet<>();
    final Set<String> nestedNames = new HashSet<>();
    /**
     * The type names (lower case) the object and enum properties of this record ask for, which the item
     * type of a list property does not take ({@code wantedTypeName}).
     */
    final Set<String> propertyTypeNames = new HashSet<>();

    final List<String> typeAnnotations = new ArrayList<>();
    boolean keepsUnknown;

    RecordDecl(String name, RecordDecl parent, String javadoc) {
        this.name = name;
        this.parent = parent;
        this.javadoc = javadoc;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * A nested type name not taken here, by an enclosing type, or by a type the code refers to: {@code
     * wanted} ({@code List} → {@code ListValue}, a name the generated code uses); where Java forbids it
     * (an enclosing type has it) or a nested type of this record has it already, prefixed with this
     * record's name ({@code Condition.Status} → {@code Condition.ConditionStatus}, as Go's {@code
     * metav1.ConditionStatus}); a number only when that is taken too.
     */
    String claimNestedName(String wanted) {
        String base = JavaNames.RESERVED_TYPES.contains(wanted) ? wanted + "Value" : wanted;
        String name = base;
        if (!nameFree(name)) {
            base = this.name + base;
            name = base;
        }
        for (int i = 2; !nameFree(name); i++) {
            name = base + i;
        }
        nestedNames.add(name.toLowerCase(Locale.ROOT));
        return name;
    }

    private boolean nameFree(String name) {
        if (nestedNames.contains(name.toLowerCase(Locale.ROOT))) {
            return false;
        }
        for (RecordDecl r = this; r != null; r = r.parent) {
            if (r.name.equals(name)) {
                return false;
            }
        }
        return true;
    }

    /** A component name not taken (case-insensitively, so the {@code with} methods differ too). */
    String claimComponentName(String wanted) {
        String name = wanted;
        for (int i = 2; componentNames.contains(name.toLowerCase(Locale.ROOT)); i++) {
            name = wanted + i;
        }
        componentNames.add(name.toLowerCase(Locale.ROOT));
        return name;
    }

    /** How deep this record is below the kind's record (its children are at 1). */
    int depth() {
        int depth = 0;
        for (RecordDecl r = this; r.parent != null; r = r.parent) {
            depth++;
        }
        return depth;
    }

    /** This nested record's name as seen from anywhere in the file ({@code Application.Spec.Source}). */
    String qualifiedName() {
        RecordDecl root = this;
        while (root.parent != null) {
            root = root.parent;
        }
        return root.name + "." + path();
    }

    /** This nested record's name as seen from the kind's record ({@code Spec.Source}). */
    String path() {
        StringBuilder path = new StringBuilder(name);
        for (RecordDecl r = parent; r != null && r.parent != null; r = r.parent) {
            path.insert(0, r.name + ".");
        }
        return path.toString();
    }
}
