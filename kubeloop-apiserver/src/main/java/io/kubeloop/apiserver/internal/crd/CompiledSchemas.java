package io.kubeloop.apiserver.internal.crd;

import io.kubeloop.api.errors.Status;
import io.kubeloop.apiserver.internal.cel.CelRules;
import io.kubeloop.apiserver.internal.cel.ParsedExpressions;
import io.kubeloop.apiserver.internal.schema.NonStructuralSchemaException;
import io.kubeloop.apiserver.internal.schema.StructuralSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * The structural schemas and compiled validation rules of CRD versions, remembered by schema content:
 * compiling a schema's CEL rules is the costly part of accepting a CRD, and the same schema comes by
 * several times — in each version of a CRD that repeats it, when the CRD's status is written, and when
 * the CRD controller starts serving what validation just accepted. Each distinct schema is compiled
 * once while it stays among the {@code capacity} most recently used; only schemas whose rules compiled
 * without error are remembered (errors name the CRD path of the version they were found in). The
 * compilations share their parsed expression texts ({@link ParsedExpressions}), since rule texts recur
 * across schemas.
 *
 * <p><b>Thread safety.</b> Thread-safe. Compiling happens outside the lock; two threads compiling the
 * same new schema at once both compile it, and either result is kept.
 */
public final class CompiledSchemas {

    /** How many distinct schemas a server remembers by default. */
    public static final int DEFAULT_CAPACITY = 64;

    /**
     * A version's schema and rules, or the problems of its rules.
     *
     * @param schema the structural schema
     * @param rules the compiled rules; {@link CelRules#none()} when there are errors
     * @param errors one cause per problem of the rules (compile errors, estimated cost over the limits)
     */
    public record Compiled(StructuralSchema schema, CelRules rules, List<Status.Cause> errors) {
        public Compiled {
            errors = List.copyOf(errors);
        }
    }

    private final int capacity;
    private final ParsedExpressions parses;
    private final ReentrantLock lock = new ReentrantLock();

    /** Schema (a private copy) to its compilation, least recently used first; guarded by {@link #lock}. */
    private final LinkedHashMap<JsonNode, Compiled> entries = new LinkedHashMap<>(16, 0.75f, true);

    /** Remembers at most {@code capacity} schemas (0: none, compile every time). */
    public CompiledSchemas(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
        this.parses = new ParsedExpressions(capacity == 0 ? 0 : ParsedExpressions.DEFAULT_CAPACITY);
    }

    /**
     * The structural schema and compiled rules of a CRD version's {@code openAPIV3Schema}.
     *
     * @param path the schema's path in its CRD, e.g. {@code spec.versions[0].schema.openAPIV3Schema},
     *     that error fields start with
     * @throws NonStructuralSchemaException if the schema is not structural (causes below {@code path})
     */
    public Compiled compile(JsonNode openAPIV3Schema, String path) {
        Compiled known = lookup(openAPIV3Schema);
        if (known != null) {
            return known;
        }
        StructuralSchema structural = StructuralSchema.of(openAPIV3Schema, path);
        CelRules.Compilation rules = CelRules.compile(structural, path, parses);
        Compiled compiled = new Compiled(structural, rules.rules(), rules.errors());
        if (compiled.errors().isEmpty()) {
            remember(openAPIV3Schema, compiled);
        }
        return compiled;
    }

    private Compiled lookup(JsonNode schema) {
        if (capacity == 0) {
            return null;
        }
        lock.lock();
        try {
            return entries.get(schema);
        } finally {
            lock.unlock();
        }
    }

    private void remember(JsonNode schema, Compiled compiled) {
        if (capacity == 0) {
            return;
        }
        JsonNode key = schema.deepCopy(); // the caller's node may change after this
        lock.lock();
        try {
            entries.put(key, compiled);
            if (entries.size() > capacity) {
                Map.Entry<JsonNode, Compiled> eldest =
                        entries.entrySet().iterator().next();
                entries.remove(eldest.getKey());
            }
        } finally {
            lock.unlock();
        }
    }
}
