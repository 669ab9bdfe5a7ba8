package io.kubeloop.apiserver.internal.storage.wal;

import java.nio.file.Path;

/**
 * A snapshot written by {@link WriteAheadLog#checkpoint} and the compaction it allowed.
 *
 * @param sequence the sequence the snapshot covers: records up to it are no longer replayed
 * @param snapshot the snapshot file, durable and under its final name
 * @param snapshotBytes the snapshot file's size
 * @param deletedSegments how many log segments were deleted because the snapshot covers every
 *     record in them
 */
public record Checkpoint(long sequence, Path snapshot, long snapshotBytes, int deletedSegments) {}
