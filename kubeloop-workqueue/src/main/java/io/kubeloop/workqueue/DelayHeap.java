package io.kubeloop.workqueue;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The waiting items of a delaying queue: a binary min-heap by ready time plus an index by item, so
 * that an item is present at most once and its ready time can be moved earlier in O(log n).
 *
 * <p>Invariants: {@code heap[0..size)} is a min-heap on {@code readyAt}; every node's
 * {@code index} is its position in {@code heap}; {@code byItem} maps exactly the items in the heap
 * to their nodes.
 *
 * <p><b>Thread safety:</b> the owning {@link DefaultDelayingQueue} guards every method with its lock,
 * except {@link #find}, which may be called without it: the index is a concurrent map and a node's
 * {@code readyAt} is volatile, so a reader sees a node that is, or was a moment ago, waiting, with
 * its current or an earlier-published ready time (ready times only ever move earlier).
 *
 * @param <T> the item type
 */
final class DelayHeap<T> {

    /** One waiting item. */
    static final class Node<T> {
        final T item;
        /** Ticker instant at which the item is due; only ever moves earlier; written under the lock. */
        volatile long readyAt;
        /** Position in the heap; guarded by the owner's lock. */
        int index;

        Node(T item, long readyAt) {
            this.item = item;
            this.readyAt = readyAt;
        }
    }

    private final ConcurrentHashMap<T, Node<T>> byItem = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    private Node<T>[] heap = new Node[16];

    private int size;

    /**
     * Inserts {@code item} to be ready at {@code readyAt}, or moves an already waiting item's ready
     * time earlier; a later time for a waiting item is ignored (client-go: the earliest wins).
     *
     * @return true if the item is now at the head of the heap (the loop may need to wake up)
     */
    boolean offer(T item, long readyAt) {
        Node<T> node = byItem.get(item);
        if (node != null) {
            if (readyAt - node.readyAt < 0) {
                node.readyAt = readyAt;
                siftUp(node.index);
            }
            return heap[0] == node;
        }
        node = new Node<>(item, readyAt);
        byItem.put(item, node);
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        node.index = size;
        heap[size++] = node;
        siftUp(node.index);
        return heap[0] == node;
    }

    /**
     * The node of {@code item} while it waits, or null; safe without the lock (see the class comment).
     * A node returned may have been taken out by the waiting loop a moment ago.
     */
    Node<T> find(T item) {
        return byItem.get(item);
    }

    /** Returns the earliest node, or null when empty. */
    Node<T> peek() {
        return size == 0 ? null : heap[0];
    }

    /** Removes and returns the earliest node; the heap must not be empty. */
    Node<T> poll() {
        Node<T> top = heap[0];
        Node<T> last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            heap[0] = last;
            last.index = 0;
            siftDown(0);
        }
        byItem.remove(top.item);
        return top;
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(heap, 0, size, null);
        size = 0;
        byItem.clear();
    }

    private void siftUp(int i) {
        Node<T> node = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Node<T> p = heap[parent];
            if (node.readyAt - p.readyAt >= 0) {
                break;
            }
            heap[i] = p;
            p.index = i;
            i = parent;
        }
        heap[i] = node;
        node.index = i;
    }

    private void siftDown(int i) {
        Node<T> node = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Node<T> c = heap[child];
            int right = child + 1;
            if (right < size && heap[right].readyAt - c.readyAt < 0) {
                child = right;
                c = heap[child];
            }
            if (node.readyAt - c.readyAt <= 0) {
                break;
            }
            heap[i] = c;
            c.index = i;
            i = child;
        }
        heap[i] = node;
        node.index = i;
    }
}
