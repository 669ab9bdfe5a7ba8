package io.kubeloop.apiserver.internal.storage.wal;

/**
 * What {@link WriteAheadLog#recover} does when it finds corruption, as opposed to a torn tail.
 * A torn tail (an incomplete or checksum-failing last write at the very end of the last segment,
 * with nothing valid after it) is always cut off: it can only hold a write that was never
 * acknowledged.
 */
public enum CorruptionPolicy {
    /**
     * Throw {@link WalCorruptionException} and leave every file as it is. The default: an
     * acknowledged write may sit behind the corruption, and dropping it silently would break the
     * durability guarantee.
     */
    FAIL,
    /**
     * Point-in-time recovery: keep every record before the corruption, copy the corrupt segment
     * aside as {@code <segment>.corrupt}, truncate it at the corruption, rename every later segment
     * to {@code <segment>.corrupt}, and report each cut as a {@link Truncation} of cause
     * {@link Truncation.Cause#CORRUPTION}. Records behind the corruption are lost, acknowledged or
     * not, and {@link Recovery#lastSequence()} may then be lower than sequences handed out before,
     * so an operator choice, never a default.
     */
    TRUNCATE
}
