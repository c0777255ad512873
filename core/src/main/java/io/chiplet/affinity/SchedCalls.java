package io.chiplet.affinity;

import java.lang.invoke.MethodHandles;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativePath;
import io.chiplet.topology.CpuSet;

/**
 * The scheduler syscall family ({@code sched_setaffinity}, {@code sched_getaffinity}, {@code gettid},
 * {@code getcpu}) as one native path implements it. {@link SchedSyscalls} is the entry point everything else uses.
 */
interface SchedCalls
{
    /** The calling thread's Linux thread id, asked of the kernel. */
    int gettid();

    /** The CPU the calling thread is running on now. */
    int currentCpu();

    /** The CPU and NUMA node the calling thread is running on now. */
    CpuLocation getcpu();

    /** {@code sched_setaffinity(tid, ...)}; {@code tid} 0 is the calling thread. */
    void setAffinity(int tid, CpuSet cpus);

    /** {@code sched_getaffinity(tid, ...)}; {@code tid} 0 is the calling thread. */
    CpuSet getAffinity(int tid);

    /**
     * {@code sched_getaffinity(tid, ...)} into {@code words} (bit {@code c % 64} of word {@code c / 64} is CPU
     * {@code c}, as {@code cpu_set_t}), nothing allocated; returns the words the kernel's mask takes, which
     * {@link #setAffinity(int, long[], int)} gives back as they are.
     *
     * @throws IllegalArgumentException when {@code words} is shorter than the kernel's mask
     */
    int getAffinity(int tid, long[] words);

    /** {@code sched_setaffinity(tid, ...)} from the first {@code count} of {@code words}, nothing allocated or converted. */
    void setAffinity(int tid, long[] words, int count);

    /** The implementation for {@code path}, whatever path this JVM chose: benchmarks compare FFM with JNA. */
    static SchedCalls forPath(NativePath path)
    {
        return NativeAccess.implementation(path, MethodHandles.lookup(), SchedCalls.class, "io.chiplet.affinity.FfmSchedCalls", JnaSchedCalls::new);
    }

    /** Bytes of the largest mask: {@link CpuSet#MAX_CPUS} bits. */
    int MAX_MASK_BYTES = CpuSet.MAX_CPUS / 8;
}
