package io.kubeloop.workqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class QueueLockTest {

    private final QueueLock lock = new QueueLock();
    private long counter;

    @Test
    void excludesConcurrentHoldersSoNoIncrementIsLost() throws InterruptedException {
        int threads = 8;
        int each = 50_000;
        CountDownLatch start = new CountDownLatch(1);
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = Thread.ofVirtual().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int j = 0; j < each; j++) {
                    lock.lock();
                    try {
                        counter++;
                    } finally {
                        lock.unlock();
                    }
                }
            });
        }
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        assertThat(counter).isEqualTo((long) threads * each);
    }

    @Test
    void conditionAwaitReleasesTheLockAndSignalWakesTheWaiter() throws InterruptedException {
        Condition ready = lock.newCondition();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread waiter = Thread.ofVirtual().start(() -> {
            lock.lock();
            try {
                waiting.countDown();
                while (counter == 0) {
                    ready.awaitUninterruptibly();
                }
            } finally {
                lock.unlock();
            }
        });
        waiting.await();
        lock.lock(); // only possible because await released it
        try {
            counter = 1;
            ready.signal();
        } finally {
            lock.unlock();
        }
        assertThat(waiter.join(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void signalWithoutHoldingTheLockIsRejected() {
        Condition c = lock.newCondition();
        assertThatThrownBy(c::signal).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(lock.hasQueuedThreads()).isFalse();
    }

    @Test
    void tryLockSucceedsOnlyWhenFreeAndTimedTryLockGivesUp() throws InterruptedException {
        assertThat(lock.tryLock()).isTrue();
        try {
            boolean[] got = new boolean[2];
            Thread other = Thread.ofVirtual().start(() -> {
                got[0] = lock.tryLock();
                try {
                    got[1] = lock.tryLock(10, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(other.join(Duration.ofSeconds(5))).isTrue();
            assertThat(got).containsExactly(false, false);
        } finally {
            lock.unlock();
        }
        assertThat(lock.tryLock(10, TimeUnit.MILLISECONDS)).isTrue();
        lock.unlock();
    }

    @Test
    void lockInterruptiblyGivesUpWhenInterrupted() throws InterruptedException {
        lock.lock();
        try {
            Throwable[] thrown = new Throwable[1];
            Thread other = Thread.ofVirtual().start(() -> {
                try {
                    lock.lockInterruptibly();
                    lock.unlock();
                } catch (InterruptedException e) {
                    thrown[0] = e;
                }
            });
            while (!lock.hasQueuedThreads()) {
                Thread.onSpinWait();
            }
            other.interrupt();
            assertThat(other.join(Duration.ofSeconds(5))).isTrue();
            assertThat(thrown[0]).isInstanceOf(InterruptedException.class);
        } finally {
            lock.unlock();
        }
    }
}
