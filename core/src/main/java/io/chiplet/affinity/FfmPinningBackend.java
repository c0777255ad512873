package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

/** Pinning through {@link SchedSyscalls}: the kernel's syscalls, nothing in between. */
final class FfmPinningBackend
        implements PinningBackend
{
    static final FfmPinningBackend INSTANCE = new FfmPinningBackend();

    private FfmPinningBackend() {}

    @Override
    public String name()
    {
        return "ffm";
    }

    @Override
    public int currentThreadId()
    {
        return SchedSyscalls.gettid();
    }

    @Override
    public CpuSet getAffinity(int tid)
    {
        return SchedSyscalls.getAffinity(tid);
    }

    @Override
    public void setAffinity(int tid, CpuSet cpus)
    {
        SchedSyscalls.setAffinity(tid, cpus);
    }

    @Override
    public int getAffinity(int tid, long[] words)
    {
        return SchedSyscalls.getAffinity(tid, words);
    }

    @Override
    public void setAffinity(int tid, long[] words, int count)
    {
        SchedSyscalls.setAffinity(tid, words, count);
    }
}
