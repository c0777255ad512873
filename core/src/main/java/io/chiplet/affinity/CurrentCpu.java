package io.chiplet.affinity;

/**
 * Where the calling thread runs now. The calls live here rather than on {@link CpuLocation}, a plain value that the
 * syscall layer returns, so that the value does not reach back into that layer.
 */
public final class CurrentCpu
{
    private CurrentCpu() {}

    /** Where the calling thread runs now ({@code getcpu(2)}); it may move the instant this returns. */
    public static CpuLocation location()
    {
        return SchedSyscalls.getcpu();
    }

    /** The CPU the calling thread runs on now ({@code sched_getcpu}: glibc answers from rseq or the vDSO, no syscall). */
    public static int cpu()
    {
        return SchedSyscalls.currentCpu();
    }
}
