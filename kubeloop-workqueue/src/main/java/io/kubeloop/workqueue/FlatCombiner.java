package io.kubeloop.workqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Flat combining over a {@link QueueLock}: a thread that finds the lock held publishes its
 * operation in a slot and spins; whichever thread holds the lock applies every published
 * operation before releasing it, so the structure's cache lines stay on the combiner's core and
 * waiting threads touch only their own slot.
 *
 * <p>Protocol. A slot is FREE, CLAIMED (by one requester, writing), PENDING (published) or DONE
 * (applied, result written). Only a requester moves FREE → CLAIMED (CAS) → PENDING and DONE →
 * FREE; only the lock holder moves PENDING → DONE. Writes of the operation happen before the
 * volatile PENDING write, and the result before the volatile DONE write, so each side reads the
 * other's plain fields safely. Every operation, published or not, is applied by a lock holder,
 * under the lock, while its requester waits, so the structure sees exactly the sequential
 * operations it would see with the lock alone, each taking effect between its call and return.
 * A requester that has spun {@link #SPINS} times without its slot becoming DONE queues on the lock
 * (parks) and, once holding it, combines itself; a requester that finds no free slot just takes
 * the lock.
 *
 * <p><b>Thread safety:</b> thread-safe. {@link Ops#apply} runs under the lock, in some thread
 * that holds it; an exception it throws is handed back to the requester and rethrown there.
 */
final class FlatCombiner {

    /** The structure's operations; always called with the lock held. */
    interface Ops {
        Object apply(int op, Object arg);
    }

    static final int SPINS = 128;
    private static final int FREE = 0;
    private static final int CLAIMED = 1;
    private static final int PENDING = 2;
    private static final int DONE = 3;

    /** One publication slot, padded against false sharing with its neighbours. */
    @SuppressWarnings("unused")
    static final class Slot {
        long p0, p1, p2, p3, p4, p5, p6;
        volatile int status;
        int op;
        Object arg;
        Object result;
        Throwable failure;
        long q0, q1, q2, q3, q4, q5, q6;
    }

    private static final VarHandle STATUS;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(Slot.class, "status", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final QueueLock lock;
    private final Ops ops;
    private final Slot[] slots;

    FlatCombiner(QueueLock lock, Ops ops) {
        this.lock = lock;
        this.ops = ops;
        int n = Integer.highestOneBit(Math.min(16, Runtime.getRuntime().availableProcessors()) * 4);
        this.slots = new Slot[Math.max(8, n)];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot();
        }
    }

    /** Applies {@code op} under the lock, by this thread or a combiner, and returns its result. */
    Object run(int op, Object arg) {
        if (lock.tryLockFast()) {
            try {
                return ops.apply(op, arg);
            } finally {
                combineAndUnlock();
            }
        }
        Slot slot = claim();
        if (slot == null) {
            lock.lock();
            try {
                return ops.apply(op, arg);
            } finally {
                combineAndUnlock();
            }
        }
        slot.op = op;
        slot.arg = arg;
        slot.status = PENDING;
        for (int i = 0; i < SPINS && slot.status != DONE; i++) {
            if (!lock.isHeld() && lock.tryLockFast()) {
                combineAndUnlock();
                break;
            }
            Thread.onSpinWait();
        }
        if (slot.status != DONE) {
            lock.lock();
            combineAndUnlock(); // applies our own slot if no one did
        }
        Object result = slot.result;
        Throwable failure = slot.failure;
        slot.arg = null;
        slot.result = null;
        slot.failure = null;
        slot.status = FREE;
        if (failure != null) {
            throw rethrow(failure);
        }
        return result;
    }

    private Slot claim() {
        int start = (int) Thread.currentThread().threadId();
        int mask = slots.length - 1;
        for (int i = 0; i < slots.length; i++) {
            Slot s = slots[(start + i) & mask];
            if (s.status == FREE && STATUS.compareAndSet(s, FREE, CLAIMED)) {
                return s;
            }
        }
        return null;
    }

    /** Applies every PENDING slot, then releases the lock; the caller holds the lock. */
    private void combineAndUnlock() {
        try {
            for (Slot s : slots) {
                if (s.status == PENDING) {
                    try {
                        s.result = ops.apply(s.op, s.arg);
                    } catch (Throwable t) {
                        s.failure = t;
                    }
                    s.status = DONE;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
