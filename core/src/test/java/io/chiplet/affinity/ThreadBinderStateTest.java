package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a binder asks of its backend and what it gives back, against a backend that keeps each thread's mask as the
 * kernel would and counts the calls: kept own masks, no call for a target that is the whole mask, restores within
 * the CPUs allowed after a cpuset change, moves and rebinds.
 */
class ThreadBinderStateTest
{
    private static final CpuSet ALL = CpuSet.range(0, 7);
    private static final PinnableCpus ALLOWED = new PinnableCpus(ALL, ALL, ALL);
    private static final int OTHER = 4242;

    /** Thread masks by id (0: the calling thread); ids it does not hold have ended. */
    private static final class CountingBackend
            implements PinningBackend
    {
        private final Map<Integer, CpuSet> masks = new HashMap<>();
        private int gets;
        private int sets;
        // An errno every set fails with, 0 for none.
        private int refuseWith;

        CountingBackend()
        {
            masks.put(0, ALL);
            masks.put(OTHER, ALL);
        }

        @Override
        public String name()
        {
            return "counting";
        }

        @Override
        public int currentThreadId()
        {
            return 77;
        }

        @Override
        public CpuSet getAffinity(int tid)
        {
            gets++;
            return mask(tid);
        }

        @Override
        public void setAffinity(int tid, CpuSet cpus)
        {
            sets++;
            if (refuseWith != 0) {
                throw new NativeCallException("sched_setaffinity", new Object[] {tid}, refuseWith);
            }
            mask(tid);
            masks.put(tid, cpus);
        }

        private CpuSet mask(int tid)
        {
            CpuSet mask = masks.get(tid);
            if (mask == null) {
                throw new NativeCallException("sched_setaffinity", new Object[] {tid}, Errno.ESRCH);
            }
            return mask;
        }
    }

    private final CountingBackend backend = new CountingBackend();

    @Test
    void aKeepingBinderReadsTheOwnMaskAtTheFirstBindOnlyAndRestoresTheKeptOne()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED).keepingOwnState();
        PreparedAffinity slot = binder.prepare(CpuSet.range(0, 3), Optional.empty());

        binder.bindCurrentThread(slot).restore();
        assertThat(backend.gets).isOne();
        assertThat(backend.sets).isEqualTo(2);
        assertThat(backend.masks.get(0)).isEqualTo(ALL);

        // Changed from outside between two binds: not read again, the kept mask comes back.
        backend.masks.put(0, CpuSet.of(5));
        BoundThread bound = binder.bindCurrentThread(slot);
        assertThat(backend.masks.get(0)).isEqualTo(CpuSet.range(0, 3));
        bound.restore();
        assertThat(backend.gets).isOne();
        assertThat(backend.masks.get(0)).isEqualTo(ALL);
        assertThat(bound.tid()).isEqualTo(77);
    }

    @Test
    void aPlainBinderReadsTheMaskAtEachBind()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED);
        PreparedAffinity slot = binder.prepare(CpuSet.range(0, 3), Optional.empty());

        binder.bindCurrentThread(slot).restore();
        backend.masks.put(0, CpuSet.of(5));
        binder.bindCurrentThread(slot).restore();

        assertThat(backend.gets).isEqualTo(2);
        assertThat(backend.masks.get(0)).isEqualTo(CpuSet.of(5));
    }

    @Test
    void aTargetThatIsTheWholeMaskCallsNothingToBindOrRestore()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED).keepingOwnState();
        PreparedAffinity whole = binder.prepare(ALL, Optional.empty());

        binder.bindCurrentThread(whole).restore();
        binder.bindCurrentThread(whole).restore();

        assertThat(backend.sets).isZero();
        assertThat(backend.gets).isOne();
    }

    @Test
    void afterACpusetChangeTargetsAreCheckedAndThreadsRestoredWithinTheNewCpus()
    {
        ThreadBinder binder = new ThreadBinder(backend, new PinnableCpus(CpuSet.range(0, 15), ALL, ALL)).keepingOwnState();
        PreparedAffinity low = binder.prepare(CpuSet.range(0, 3), Optional.empty());
        BoundThread bound = binder.bindCurrentThread(low);

        // The kubelet narrows the cpuset to 4-7 and the watcher moves the running thread to its slot's new CPUs.
        binder.follow(CpuSet.range(4, 7));
        PreparedAffinity high = binder.prepare(CpuSet.range(4, 5), Optional.empty());
        assertThatThrownBy(() -> binder.prepare(CpuSet.range(0, 1), Optional.empty())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not allowed");
        assertThat(binder.pinnable().cpus()).isEqualTo(CpuSet.range(4, 7));
        bound.restore();
        assertThat(backend.masks.get(0)).isEqualTo(CpuSet.range(4, 7));

        // The kept mask is read again (it is 4-7 now), so a slot of all of it needs no call.
        int gets = backend.gets;
        binder.bindCurrentThread(binder.prepare(CpuSet.range(4, 7), Optional.empty())).restore();
        assertThat(backend.gets).isEqualTo(gets + 1);

        // None of its own CPUs left: all of the allowed ones (the kernel refuses a mask with none).
        backend.masks.put(0, CpuSet.of(4));
        binder.follow(CpuSet.range(6, 7));
        binder.bindCurrentThread(binder.prepare(CpuSet.of(7), Optional.empty()));
        binder.follow(CpuSet.of(6));
        binder.currentThread().restore();
        assertThat(backend.masks.get(0)).isEqualTo(CpuSet.of(6));
        assertThat(high.cpus()).isEqualTo(CpuSet.range(4, 5));
    }

    @Test
    void aThreadMovedByACpusetChangeIsRestoredEvenWhenItsBindSetNothing()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED).keepingOwnState();
        BoundThread bound = binder.bindCurrentThread(binder.prepare(ALL, Optional.empty()));
        assertThat(backend.sets).isZero();

        binder.follow(CpuSet.range(2, 7));
        backend.masks.put(0, CpuSet.range(2, 3));
        bound.restore();

        assertThat(backend.masks.get(0)).isEqualTo(CpuSet.range(2, 7));
    }

    @Test
    void movesARunningThreadAndSaysWhenItHasEnded()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED);
        PreparedAffinity slot = binder.prepare(CpuSet.range(2, 3), Optional.empty());

        assertThat(binder.move(OTHER, slot)).isTrue();
        assertThat(backend.masks.get(OTHER)).isEqualTo(CpuSet.range(2, 3));
        assertThat(binder.move(OTHER + 1, slot)).isFalse();
        assertThatThrownBy(() -> binder.follow(CpuSet.empty())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void masksAreReadThroughTheBackendAndAnEndedThreadIsNamed()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED);
        backend.masks.put(OTHER, CpuSet.range(2, 3));

        assertThat(binder.maskOf(OTHER)).isEqualTo(CpuSet.range(2, 3));
        assertThat(binder.currentMask()).isEqualTo(ALL);
        assertThatThrownBy(() -> binder.maskOf(OTHER + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("thread " + (OTHER + 1) + " is not a thread of this process (it may have ended)");
        assertThatThrownBy(() -> binder.maskOf(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBindTheKernelDoesNotPermitSaysWhy()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED);
        PreparedAffinity slot = binder.prepare(CpuSet.range(2, 3), Optional.empty());
        backend.refuseWith = Errno.EPERM;

        assertThatThrownBy(() -> binder.move(OTHER, slot))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot bind thread " + OTHER + ": not permitted (another user's thread, or CAP_SYS_NICE missing)");
        assertThatThrownBy(() -> binder.bindCurrentThread(slot))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot bind the calling thread: not permitted");
        assertThat(binder.currentThread().isBound()).isFalse();
    }

    @Test
    void aRebindMovesTheCpusAndTheRestoreStillGivesBackTheMaskBeforeTheBind()
    {
        ThreadBinder binder = new ThreadBinder(backend, ALLOWED);
        BoundThread bound = binder.currentThread();
        assertThatThrownBy(() -> bound.rebind(binder.prepare(CpuSet.of(1), Optional.empty()))).isInstanceOf(IllegalStateException.class);

        bound.bind(binder.prepare(ALL, Optional.empty()));
        bound.rebind(binder.prepare(CpuSet.of(1), Optional.empty()));
        assertThat(bound.isBound()).isTrue();
        assertThat(backend.masks.get(0)).isEqualTo(CpuSet.of(1));
        assertThatThrownBy(() -> bound.rebind(binder.prepare(CpuSet.of(1), Optional.of(MemoryPolicy.preferred(0)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CPUs only");
        bound.restore();

        assertThat(backend.masks.get(0)).isEqualTo(ALL);
        assertThat(bound.isBound()).isFalse();
    }

    @Test
    void maskWordsCompareAndIntersectWithoutAllocating()
    {
        long[] a = CpuMaskWords.of(CpuSet.parseList("0-3,64"));
        long[] b = {0xfL, 0L, 0L};
        long[] into = new long[CpuMaskWords.MAX_WORDS];

        assertThat(CpuMaskWords.same(a, 1, b, 3)).isTrue();
        assertThat(CpuMaskWords.same(a, 2, b, 3)).isFalse();
        assertThat(CpuMaskWords.intersect(a, 2, b, 3, into)).isEqualTo(2);
        assertThat(CpuMaskWords.toCpuSet(into, 2)).isEqualTo(CpuSet.range(0, 3));
        assertThat(CpuMaskWords.intersect(a, 2, new long[] {0x10L}, 1, into)).isZero();
    }
}
