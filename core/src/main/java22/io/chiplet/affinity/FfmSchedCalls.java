package io.chiplet.affinity;

import io.chiplet.nativeio.Downcalls;
import io.chiplet.topology.CpuSet;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.BitSet;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@link SchedCalls} through the JDK's FFM API (JDK 22+), via glibc (2.30+ exports {@code gettid}; 2.29+
 * {@code getcpu}). Each thread keeps one scratch area (mask and errno capture) so the pin and read paths allocate
 * nothing.
 */
final class FfmSchedCalls
        implements SchedCalls
{
    // Each downcall is linked on first use, in a holder class of its own: linking one spins a few classes (a tenth of
    // a millisecond warm, several milliseconds at a JVM's start), and a short-lived JVM (the CLI) needs one or two.
    private static final class SetAffinity
    {
        static final MethodHandle HANDLE = Downcalls.downcallWithErrno(
                "sched_setaffinity", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS));
    }

    // sched_getaffinity copies a mask out under a lock held for nanoseconds and never blocks: a critical call, which skips
    // the thread-state transitions (a third of what FFM adds to a bind and restore). Not sched_setaffinity: it may have
    // to wait for the thread to move to an allowed CPU, and a critical call would hold up a safepoint meanwhile.
    private static final class GetAffinity
    {
        static final MethodHandle HANDLE = Downcalls.downcallWithErrno(
                "sched_getaffinity", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.critical(false));
    }

    // gettid (a syscall that returns at once) and sched_getcpu (rseq or vDSO, no syscall) never block: critical calls.
    private static final class Gettid
    {
        static final MethodHandle HANDLE = Downcalls.downcallCritical("gettid", FunctionDescriptor.of(JAVA_INT));
    }

    // getcpu is the vDSO's on x86-64 and never blocks either.
    private static final class Getcpu
    {
        static final MethodHandle HANDLE = Downcalls.downcallWithErrno(
                "getcpu", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Linker.Option.critical(false));
    }

    private static final class SchedGetcpu
    {
        static final MethodHandle HANDLE = Downcalls.downcallCritical("sched_getcpu", FunctionDescriptor.of(JAVA_INT));
    }

    // Per-thread scratch: a thread-confined cache, not shared state; it lives as long as its thread.
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    FfmSchedCalls() {}

    @Override
    public int gettid()
    {
        try {
            return (int) Gettid.HANDLE.invokeExact();
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    @Override
    public int currentCpu()
    {
        try {
            return (int) SchedGetcpu.HANDLE.invokeExact();
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    @Override
    public CpuLocation getcpu()
    {
        Scratch scratch = SCRATCH.get();
        try {
            int result = (int) Getcpu.HANDLE.invokeExact(scratch.callState, scratch.cpu, scratch.node);
            Downcalls.check(result, scratch.callState, "getcpu");
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
        return new CpuLocation(scratch.cpu.get(JAVA_INT, 0), scratch.node.get(JAVA_INT, 0));
    }

    @Override
    public void setAffinity(int tid, CpuSet cpus)
    {
        Scratch scratch = SCRATCH.get();
        long bytes = scratch.encode(cpus);
        try {
            int result = (int) SetAffinity.HANDLE.invokeExact(scratch.callState, tid, bytes, scratch.mask);
            Downcalls.check(result, scratch.callState, "sched_setaffinity", "tid " + tid, "cpus " + cpus.toList());
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    @Override
    public CpuSet getAffinity(int tid)
    {
        Scratch scratch = SCRATCH.get();
        int count = KernelMask.WORDS;
        try {
            int result = (int) GetAffinity.HANDLE.invokeExact(scratch.callState, tid, (long) count * 8, scratch.mask);
            Downcalls.check(result, scratch.callState, "sched_getaffinity", "tid " + tid, count * 8 + " bytes");
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
        return scratch.decode(count);
    }

    @Override
    public int getAffinity(int tid, long[] words)
    {
        int count = KernelMask.WORDS;
        if (words.length < count) {
            throw new IllegalArgumentException("a mask of " + words.length + " words is shorter than the kernel's " + count);
        }
        Scratch scratch = SCRATCH.get();
        try {
            int result = (int) GetAffinity.HANDLE.invokeExact(scratch.callState, tid, (long) count * 8, scratch.mask);
            // Only on failure: the message's strings and varargs array would be a per-bind allocation.
            if (result < 0) {
                Downcalls.check(result, scratch.callState, "sched_getaffinity", "tid " + tid, count * 8 + " bytes");
            }
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
        scratch.written(count);
        MemorySegment.copy(scratch.mask, JAVA_LONG, 0, words, 0, count);
        return count;
    }

    @Override
    public void setAffinity(int tid, long[] words, int count)
    {
        Scratch scratch = SCRATCH.get();
        MemorySegment.copy(words, 0, scratch.mask, JAVA_LONG, 0, count);
        scratch.written(count);
        try {
            int result = (int) SetAffinity.HANDLE.invokeExact(scratch.callState, tid, (long) count * 8, scratch.mask);
            if (result < 0) {
                Downcalls.check(result, scratch.callState, "sched_setaffinity", "tid " + tid, "cpus " + CpuMaskWords.toCpuSet(words, count).toList());
            }
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    // The kernel's mask width, found once by asking (see CpuMaskWords.kernelWords).
    private static final class KernelMask
    {
        static final int WORDS = CpuMaskWords.kernelWords(bytes -> {
            Scratch scratch = SCRATCH.get();
            try {
                int result = (int) GetAffinity.HANDLE.invokeExact(scratch.callState, 0, bytes, scratch.mask);
                scratch.written(MAX_MASK_BYTES / 8);
                return result < 0 ? Downcalls.errno(scratch.callState) : 0;
            }
            catch (Throwable t) {
                throw SchedSyscalls.rethrow(t);
            }
        });
    }

    private static final class Scratch
    {
        private final MemorySegment mask;
        private final MemorySegment callState;
        private final MemorySegment cpu;
        private final MemorySegment node;
        private int dirtyWords = MAX_MASK_BYTES / 8;

        Scratch()
        {
            // An automatic arena: freed when the thread (and with it this scratch) is gone.
            Arena arena = Arena.ofAuto();
            mask = arena.allocate(MAX_MASK_BYTES, 8);
            callState = Downcalls.allocateCallState(arena);
            cpu = arena.allocate(JAVA_INT);
            node = arena.allocate(JAVA_INT);
        }

        /** Writes {@code cpus} into the mask and returns the bytes that hold it (whole 64-bit words, at least one). */
        long encode(CpuSet cpus)
        {
            int words = Math.max(1, (cpus.last() + 64) / 64);
            // Clear only what the previous use may have set.
            mask.asSlice(0, (long) Math.max(words, dirtyWords) * 8).fill((byte) 0);
            dirtyWords = words;
            cpus.stream().forEach(cpu -> {
                long offset = (long) (cpu >>> 6) * 8;
                mask.set(JAVA_LONG, offset, mask.get(JAVA_LONG, offset) | (1L << (cpu & 63)));
            });
            return (long) words * 8;
        }

        /** Words from the start of the mask that a call may have written, which the next encode clears. */
        void written(int words)
        {
            dirtyWords = Math.max(dirtyWords, words);
        }

        /** Reads the first {@code count} words of the mask the glibc wrapper filled (it returns 0, not the kernel's byte count). */
        CpuSet decode(int count)
        {
            written(count);
            int words = count;
            while (words > 0 && mask.getAtIndex(JAVA_LONG, words - 1) == 0) {
                words--;
            }
            long[] bits = new long[words];
            MemorySegment.copy(mask, JAVA_LONG, 0, bits, 0, words);
            return CpuSet.fromBitSet(BitSet.valueOf(bits));
        }
    }
}
