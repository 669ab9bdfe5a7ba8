package io.kubeloop.apiserver.internal.storage;

/**
 * The outcome of one {@link VersionedStore#write}.
 *
 * <p>Immutable.
 *
 * @param object the state after the write: the committed version, the unchanged current version
 *        ({@link Change.Keep}), the last state at the deletion revision ({@link Change.Delete}), or the
 *        unstored dry-run result (resourceVersion 0)
 * @param committed whether a new revision was written
 * @param deleted whether the key is gone now (or would be, for a dry run)
 */
public record WriteResult(StoredObject object, boolean committed, boolean deleted) {}
