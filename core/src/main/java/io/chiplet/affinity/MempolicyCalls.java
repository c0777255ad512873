package io.chiplet.affinity;

import java.lang.invoke.MethodHandles;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativePath;

import java.util.BitSet;

/**
 * The NUMA memory-policy syscall family as one native path implements it. {@link MempolicySyscalls} is the entry
 * point everything else uses, and checks the arguments.
 */
interface MempolicyCalls
{
    void setMempolicy(int mode, BitSet nodes);

    KernelMempolicy getMempolicy();

    /**
     * {@code set_mempolicy(mode, ...)} for the calling thread from the first {@code count} words of a node mask
     * (bit {@code n % 64} of word {@code n / 64} is node {@code n}; none for {@code count} 0), nothing allocated.
     */
    void setMempolicy(int mode, long[] nodeWords, int count);

    /**
     * The calling thread's policy, nothing allocated: its nodes into {@code nodeWords} (at least
     * {@link MempolicySyscalls#MAX_NODES} bits), its mode (with any mode flags) returned.
     */
    int getMempolicy(long[] nodeWords);

    KernelMempolicy getMempolicy(long address);

    void mbind(long address, long length, int mode, BitSet nodes, int flags);

    long pageSize();

    /** The implementation for {@code path}, whatever path this JVM chose. */
    static MempolicyCalls forPath(NativePath path)
    {
        return NativeAccess.implementation(path, MethodHandles.lookup(), MempolicyCalls.class, "io.chiplet.affinity.FfmMempolicyCalls", JnaMempolicyCalls::new);
    }
}
