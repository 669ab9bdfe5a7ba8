package io.kubeloop.apiserver.internal.storage.wal;

import java.util.List;

/**
 * What {@link WriteAheadLog#recover} found.
 *
 * @param snapshotSequence sequence of the snapshot that was loaded, 0 when there was none
 * @param lastSequence the highest sequence held by the snapshot or the log, 0 for an empty
 *     directory; every later append must use a larger sequence
 * @param replayedRecords how many records (with sequences above the snapshot's) were replayed
 * @param truncations bytes cut off segments: torn tails, and corruption under
 *     {@link CorruptionPolicy#TRUNCATE}; empty after a clean shutdown
 */
public record Recovery(long snapshotSequence, long lastSequence, long replayedRecords, List<Truncation> truncations) {

    public Recovery {
        truncations = List.copyOf(truncations);
    }
}
