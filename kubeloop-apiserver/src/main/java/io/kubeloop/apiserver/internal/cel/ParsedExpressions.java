package io.kubeloop.apiserver.internal.cel;

import dev.cel.common.CelValidationResult;
import dev.cel.compiler.CelCompiler;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * CEL expressions parsed, by their text, for the schema compilations of one server. Parsing depends on
 * the text alone, and the same rule text recurs (within a schema, and across CRDs that share types, as
 * the Gateway API's routes do), so each text is parsed once while it stays among the {@code capacity}
 * most recently used. Results, parse errors included, are immutable and shared.
 *
 * <p><b>Thread safety.</b> Thread-safe. Parsing happens outside the lock; two compilations parsing the
 * same new text at once both parse it, and either result is kept.
 */
public final class ParsedExpressions {

    /** How many expression texts a server remembers by default. */
    public static final int DEFAULT_CAPACITY = 2048;

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();

    /** Text to parse result, least recently used first; guarded by {@link #lock}. */
    private final LinkedHashMap<String, CelValidationResult> entries = new LinkedHashMap<>(64, 0.75f, true);

    /** Remembers at most {@code capacity} texts (0: none, parse every time). */
    public ParsedExpressions(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Parse results of {@code texts}, each parsed once (those not remembered concurrently). */
    Map<String, CelValidationResult> parseAll(Collection<String> texts) {
        Map<String, CelValidationResult> out = new HashMap<>();
        List<String> missing = new ArrayList<>();
        lock.lock();
        try {
            for (String text : new LinkedHashSet<>(texts)) {
                CelValidationResult known = entries.get(text);
                if (known != null) {
                    out.put(text, known);
                } else {
                    missing.add(text);
                }
            }
        } finally {
            lock.unlock();
        }
        CelCompiler parser = CelEnvironment.STANDARD.parser();
        List<CelValidationResult> parsed =
                missing.parallelStream().map(parser::parse).toList();
        lock.lock();
        try {
            for (int i = 0; i < missing.size(); i++) {
                out.put(missing.get(i), parsed.get(i));
                if (capacity > 0) {
                    entries.put(missing.get(i), parsed.get(i));
                }
            }
            while (entries.size() > capacity) {
                entries.remove(entries.keySet().iterator().next());
            }
        } finally {
            lock.unlock();
        }
        return out;
    }
}
