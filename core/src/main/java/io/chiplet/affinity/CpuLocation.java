package io.chiplet.affinity;

/** Where a thread ran at one instant, as {@code getcpu(2)} reports it. */
public record CpuLocation(int cpu, int numaNode)
{
    /** Where the calling thread runs now ({@code getcpu(2)}); it may move the instant this returns. */
    public static CpuLocation current()
    {
        return SchedSyscalls.getcpu();
    }

    /** The CPU the calling thread runs on now ({@code sched_getcpu}: glibc answers from rseq or the vDSO, no syscall). */
    public static int currentCpu()
    {
        return SchedSyscalls.currentCpu();
    }
}
