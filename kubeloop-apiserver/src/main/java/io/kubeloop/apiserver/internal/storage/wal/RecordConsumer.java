package io.kubeloop.apiserver.internal.storage.wal;

/**
 * Receives the records {@link WriteAheadLog#recover} replays: those with a sequence above the
 * loaded snapshot's, in ascending sequence order, each exactly as it was appended.
 */
@FunctionalInterface
public interface RecordConsumer {

    /**
     * Applies one record.
     *
     * @param sequence the sequence it was appended with
     * @param record its bytes, a fresh array the consumer may keep
     */
    void accept(long sequence, byte[] record);
}
