package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativePath;

import java.util.BitSet;

/**
 * The NUMA memory-policy syscall family as one native path implements it. {@link MempolicySyscalls} is the entry
 * point everything else uses, and checks the arguments.
 */
public interface MempolicyCalls
{
    void setMempolicy(int mode, BitSet nodes);

    MempolicySyscalls.Policy getMempolicy();

    MempolicySyscalls.Policy getMempolicy(long address);

    void mbind(long address, long length, int mode, BitSet nodes, int flags);

    long pageSize();

    /** The implementation for {@code path}, whatever path this JVM chose. */
    static MempolicyCalls forPath(NativePath path)
    {
        return NativeAccess.implementation(path, MempolicyCalls.class, "io.chiplet.affinity.FfmMempolicyCalls", JnaMempolicyCalls::new);
    }
}
