package io.chiplet.affinity;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import io.chiplet.nativeio.JnaLibc;
import io.chiplet.nativeio.LinuxSyscallNumbers;

import java.util.Arrays;
import java.util.BitSet;

import static io.chiplet.affinity.MempolicySyscalls.MAX_NODES;
import static io.chiplet.affinity.MempolicySyscalls.MPOL_F_ADDR;
import static io.chiplet.affinity.MempolicySyscalls.modeName;
import static io.chiplet.affinity.MempolicySyscalls.modeOf;

/** {@link MempolicyCalls} through JNA direct mapping and {@code syscall(2)}, for JDK 17 and 21. */
final class JnaMempolicyCalls
        implements MempolicyCalls
{
    private static final LinuxSyscallNumbers NUMBERS = LinuxSyscallNumbers.current();
    private static final long SET_MEMPOLICY = LinuxSyscallNumbers.orInvalid(NUMBERS.setMempolicy());
    private static final long GET_MEMPOLICY = LinuxSyscallNumbers.orInvalid(NUMBERS.getMempolicy());
    private static final long MBIND = LinuxSyscallNumbers.orInvalid(NUMBERS.mbind());

    static {
        Native.register(JnaMempolicyCalls.class, JnaLibc.library());
    }

    private static native long syscallSetMempolicy(long number, long mode, long[] nodemask, long maxnode)
            throws LastErrorException;

    private static native long syscallGetMempolicy(long number, int[] mode, long[] nodemask, long maxnode, long address, long flags)
            throws LastErrorException;

    private static native long syscallMbind(long number, long address, long length, long mode, long[] nodemask, long maxnode, long flags)
            throws LastErrorException;

    private static native int getpagesize();

    @Override
    public void setMempolicy(int mode, BitSet nodes)
    {
        long[] words = nodes.toLongArray();
        try {
            syscallSetMempolicy(SET_MEMPOLICY, mode, words.length == 0 ? null : words, MempolicySyscalls.maxnode(words));
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "set_mempolicy", modeName(mode), "nodes " + nodes, "via jna");
        }
    }

    @Override
    public void setMempolicy(int mode, long[] nodeWords, int count)
    {
        try {
            syscallSetMempolicy(SET_MEMPOLICY, mode, count == 0 ? null : nodeWords, count == 0 ? 0 : (long) count * 64 + 1);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "set_mempolicy", modeName(mode), "nodes " + BitSet.valueOf(Arrays.copyOf(nodeWords, count)), "via jna");
        }
    }

    // A thread-confined mode cell per thread, so that reading a policy into the caller's words allocates nothing.
    private static final ThreadLocal<int[]> MODE = ThreadLocal.withInitial(() -> new int[1]);

    @Override
    public int getMempolicy(long[] nodeWords)
    {
        MempolicySyscalls.checkNodeWords(nodeWords);
        int[] mode = MODE.get();
        try {
            syscallGetMempolicy(GET_MEMPOLICY, mode, nodeWords, (long) MAX_NODES + 1, 0, 0);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "get_mempolicy", "via jna");
        }
        return mode[0];
    }

    @Override
    public KernelMempolicy getMempolicy()
    {
        return getMempolicy(0, 0);
    }

    @Override
    public KernelMempolicy getMempolicy(long address)
    {
        return getMempolicy(address, MPOL_F_ADDR);
    }

    private static KernelMempolicy getMempolicy(long address, int flags)
    {
        int[] mode = new int[1];
        long[] mask = new long[MAX_NODES / 64];
        try {
            syscallGetMempolicy(GET_MEMPOLICY, mode, mask, (long) MAX_NODES + 1, address, flags);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "get_mempolicy", "addr 0x" + Long.toHexString(address), "flags " + flags, "via jna");
        }
        return new KernelMempolicy(modeOf(mode[0]), BitSet.valueOf(mask));
    }

    @Override
    public void mbind(long address, long length, int mode, BitSet nodes, int flags)
    {
        long[] words = nodes.toLongArray();
        try {
            syscallMbind(MBIND, address, length, mode, words.length == 0 ? null : words, MempolicySyscalls.maxnode(words), flags);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "mbind", "addr 0x" + Long.toHexString(address), length + " bytes", modeName(mode), "nodes " + nodes,
                    "flags " + flags, "via jna");
        }
    }

    @Override
    public long pageSize()
    {
        return getpagesize();
    }
}
