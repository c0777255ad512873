package io.chiplet.affinity;

import java.util.BitSet;

/**
 * A thread's memory policy as {@code get_mempolicy} reports it: the mode (without flags) and its nodes. What the native
 * paths return ({@link MempolicyCalls}) and {@link MemoryPolicy} reads.
 */
record KernelMempolicy(int mode, BitSet nodes)
{
    KernelMempolicy
    {
        nodes = (BitSet) nodes.clone();
    }

    @Override
    public BitSet nodes()
    {
        return (BitSet) nodes.clone();
    }
}
