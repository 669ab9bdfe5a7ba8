package io.kubeloop.apiserver.internal.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL types of a structural schema, as Kubernetes declares them for {@code self}: an object with
 * properties is a struct named by its path ({@code Object}, {@code Object.spec},
 * {@code Object.spec.ports.@idx}), so that a rule naming a field the schema lacks fails to compile; an
 * object with {@code additionalProperties} is a {@code map(string, V)}; arrays are lists; strings are
 * {@code string}, or {@code bytes}, {@code duration}, {@code timestamp} for the formats {@code byte},
 * {@code duration}, {@code date-time}; {@code integer} is {@code int}, {@code number} is
 * {@code double}; int-or-string values and objects that preserve unknown fields without properties are
 * {@code dyn}. Field names are escaped ({@link FieldNames}). At the root (and in embedded resources) {@code apiVersion}, {@code kind} and a
 * {@code metadata} holding {@code name} and {@code generateName} are fields too.
 *
 * <p>Immutable once built; the type provider is thread-safe.
 */
final class SchemaTypes {

    /** No struct types: for expressions over untyped values. */
    static final CelTypeProvider NONE = new Provider(ImmutableMap.of());

    private final Map<String, CelType> structs = new LinkedHashMap<>();
    private final Map<StructuralSchema, CelType> bySchema = new IdentityHashMap<>();
    private final Provider provider;

    private SchemaTypes(StructuralSchema root) {
        declare(root, "Object", true);
        provider = new Provider(ImmutableMap.copyOf(structs));
    }

    /** The types of {@code root} and of every node below it. */
    static SchemaTypes of(StructuralSchema root) {
        return new SchemaTypes(root);
    }

    /** The struct types, for a compiler. */
    CelTypeProvider provider() {
        return provider;
    }

    /** The type of a node of the schema this was built from. */
    CelType typeOf(StructuralSchema node) {
        CelType t = bySchema.get(node);
        if (t == null) {
            throw new IllegalArgumentException("not a node of this schema: " + node);
        }
        return t;
    }

    /** The struct types by name. */
    private record Provider(ImmutableMap<String, CelType> structs) implements CelTypeProvider {
        @Override
        public ImmutableCollection<CelType> types() {
            return structs.values();
        }

        @Override
        public Optional<CelType> findType(String typeName) {
            return Optional.ofNullable(structs.get(typeName));
        }
    }

    private CelType declare(StructuralSchema s, String name, boolean root) {
        CelType t = switch (s.type()) {
            case "object" -> object(s, name, root);
            case "array" ->
                ListType.create(
                        s.items().map(i -> declare(i, name + ".@idx", false)).orElse(SimpleType.DYN));
            case "string" ->
                switch (s.format()) {
                    case "byte" -> SimpleType.BYTES;
                    case "duration" -> SimpleType.DURATION;
                    case "date-time" -> SimpleType.TIMESTAMP;
                    default -> SimpleType.STRING;
                };
            case "integer" -> SimpleType.INT;
            case "number" -> SimpleType.DOUBLE;
            case "boolean" -> SimpleType.BOOL;
            default -> SimpleType.DYN;
        };
        bySchema.put(s, t);
        return t;
    }

    private CelType object(StructuralSchema s, String name, boolean root) {
        if (s.additionalProperties().isPresent()) {
            return MapType.create(
                    SimpleType.STRING, declare(s.additionalProperties().get(), name + ".@elem", false));
        }
        boolean resource = root || s.embeddedResource();
        if (s.properties().isEmpty() && !resource) {
            return s.preserveUnknownFields() ? SimpleType.DYN : struct(name, Map.of());
        }
        Map<String, CelType> fields = new LinkedHashMap<>();
        if (resource) {
            fields.put("apiVersion", SimpleType.STRING);
            fields.put("kind", SimpleType.STRING);
            fields.put("metadata", metadata(name + ".metadata"));
        }
        s.properties().forEach((field, schema) -> {
            if (resource && field.equals("metadata")) {
                bySchema.put(schema, fields.get("metadata"));
                return;
            }
            CelType t = declare(schema, name + "." + field, false);
            FieldNames.escape(field).ifPresent(celName -> fields.put(celName, t));
        });
        return struct(name, fields);
    }

    private CelType metadata(String name) {
        Map<String, CelType> fields = new LinkedHashMap<>();
        fields.put("name", SimpleType.STRING);
        fields.put("generateName", SimpleType.STRING);
        return struct(name, fields);
    }

    private CelType struct(String name, Map<String, CelType> fields) {
        ImmutableMap<String, CelType> copy = ImmutableMap.copyOf(fields);
        StructType t =
                StructType.create(name, ImmutableSet.copyOf(fields.keySet()), f -> Optional.ofNullable(copy.get(f)));
        structs.put(name, t);
        return t;
    }
}
