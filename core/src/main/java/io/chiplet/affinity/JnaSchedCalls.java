package io.chiplet.affinity;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import io.chiplet.nativeio.JnaLibc;
import io.chiplet.nativeio.LinuxSyscallNumbers;
import io.chiplet.topology.CpuSet;

import java.util.Arrays;
import java.util.BitSet;

/**
 * {@link SchedCalls} through JNA direct mapping, for JDK 17 and 21. {@code gettid} and {@code getcpu} go through
 * {@code syscall(2)}: glibc wraps them only since 2.30 and 2.29, and RHEL 8, a common Spark host, has 2.28.
 */
final class JnaSchedCalls
        implements SchedCalls
{
    private static final long SYS_GETTID = LinuxSyscallNumbers.orInvalid(LinuxSyscallNumbers.current().gettid());
    private static final long SYS_GETCPU = LinuxSyscallNumbers.orInvalid(LinuxSyscallNumbers.current().getcpu());

    static {
        Native.register(JnaSchedCalls.class, JnaLibc.library());
    }

    // A thread-confined scratch mask per thread, so the pin and read paths allocate nothing.
    private static final ThreadLocal<long[]> MASK = ThreadLocal.withInitial(() -> new long[MAX_MASK_BYTES / 8]);

    private static native int sched_setaffinity(int pid, long cpusetsize, long[] mask)
            throws LastErrorException;

    private static native int sched_getaffinity(int pid, long cpusetsize, long[] mask)
            throws LastErrorException;

    // Cannot fail where the kernel has getcpu (2.6.19+): declared without errno capture, which costs as much as the call.
    private static native int sched_getcpu();

    private static native long syscallGettid(long number);

    private static native long syscallGetcpu(long number, int[] cpu, int[] node, long cache)
            throws LastErrorException;

    @Override
    public int gettid()
    {
        return (int) syscallGettid(SYS_GETTID);
    }

    @Override
    public int currentCpu()
    {
        int cpu = sched_getcpu();
        if (cpu < 0) {
            throw new IllegalStateException("sched_getcpu failed: the kernel has no getcpu");
        }
        return cpu;
    }

    @Override
    public CpuLocation getcpu()
    {
        int[] cpu = new int[1];
        int[] node = new int[1];
        try {
            syscallGetcpu(SYS_GETCPU, cpu, node, 0);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "getcpu");
        }
        return new CpuLocation(cpu[0], node[0]);
    }

    @Override
    public void setAffinity(int tid, CpuSet cpus)
    {
        long[] mask = MASK.get();
        int words = Math.max(1, (cpus.last() + 64) / 64);
        Arrays.fill(mask, 0, words, 0L);
        for (int cpu : cpus.toArray()) {
            mask[cpu >>> 6] |= 1L << (cpu & 63);
        }
        try {
            sched_setaffinity(tid, (long) words * 8, mask);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "sched_setaffinity", "tid " + tid, "cpus " + cpus.toList(), "via jna");
        }
    }

    @Override
    public int getAffinity(int tid, long[] words)
    {
        int count = KernelMask.WORDS;
        if (words.length < count) {
            throw new IllegalArgumentException("a mask of " + words.length + " words is shorter than the kernel's " + count);
        }
        try {
            sched_getaffinity(tid, (long) count * 8, words);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "sched_getaffinity", "tid " + tid, count * 8 + " bytes", "via jna");
        }
        return count;
    }

    @Override
    public void setAffinity(int tid, long[] words, int count)
    {
        try {
            sched_setaffinity(tid, (long) count * 8, words);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "sched_setaffinity", "tid " + tid, "cpus " + CpuMaskWords.toCpuSet(words, count).toList(), "via jna");
        }
    }

    // The kernel's mask width, found once by asking (see CpuMaskWords.kernelWords).
    private static final class KernelMask
    {
        static final int WORDS = CpuMaskWords.kernelWords(bytes -> {
            try {
                sched_getaffinity(0, bytes, MASK.get());
                return 0;
            }
            catch (LastErrorException e) {
                return e.getErrorCode();
            }
        });
    }

    @Override
    public CpuSet getAffinity(int tid)
    {
        long[] mask = MASK.get();
        try {
            sched_getaffinity(tid, MAX_MASK_BYTES, mask);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "sched_getaffinity", "tid " + tid, MAX_MASK_BYTES + " bytes", "via jna");
        }
        int words = mask.length;
        while (words > 0 && mask[words - 1] == 0) {
            words--;
        }
        return CpuSet.fromBitSet(BitSet.valueOf(Arrays.copyOf(mask, words)));
    }
}
