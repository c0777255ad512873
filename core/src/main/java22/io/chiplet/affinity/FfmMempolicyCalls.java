package io.chiplet.affinity;

import io.chiplet.nativeio.Downcalls;
import io.chiplet.nativeio.LinuxSyscallNumbers;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.BitSet;

import static io.chiplet.affinity.MempolicySyscalls.MAX_NODES;
import static io.chiplet.affinity.MempolicySyscalls.MPOL_F_ADDR;
import static io.chiplet.affinity.MempolicySyscalls.modeName;
import static io.chiplet.affinity.MempolicySyscalls.modeOf;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@link MempolicyCalls} through the JDK's FFM API (JDK 22+) and {@code syscall(2)}. */
final class FfmMempolicyCalls
        implements MempolicyCalls
{
    private static final LinuxSyscallNumbers NUMBERS = LinuxSyscallNumbers.current();
    private static final long SET_MEMPOLICY = LinuxSyscallNumbers.orInvalid(NUMBERS.setMempolicy());
    private static final long GET_MEMPOLICY = LinuxSyscallNumbers.orInvalid(NUMBERS.getMempolicy());
    private static final long MBIND = LinuxSyscallNumbers.orInvalid(NUMBERS.mbind());

    // syscall(long number, ...): every argument after the number is variadic; passed as longs, as the kernel reads them.
    // Each shape is linked on first use, in a holder class of its own: linking is most of a short-lived JVM's cost of
    // a call (chiplet exec --membind needs only set_mempolicy).
    private static final class Syscall3
    {
        static final MethodHandle HANDLE = Downcalls.downcallWithErrno("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
    }

    private static final class Syscall5
    {
        static final MethodHandle HANDLE = Downcalls.downcallWithErrno("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
    }

    private static final class Syscall6
    {
        static final MethodHandle HANDLE = Downcalls.downcallWithErrno("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
    }

    private static final class Getpagesize
    {
        static final MethodHandle HANDLE = Downcalls.downcall("getpagesize", FunctionDescriptor.of(JAVA_INT));
    }

    FfmMempolicyCalls() {}

    @Override
    public void setMempolicy(int mode, BitSet nodes)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            long[] words = nodes.toLongArray();
            long result = (long) Syscall3.HANDLE.invokeExact(callState, SET_MEMPOLICY, (long) mode, encode(arena, words), MempolicySyscalls.maxnode(words));
            Downcalls.check(result, callState, "set_mempolicy", modeName(mode), "nodes " + nodes);
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    // Per-thread scratch for the allocation-free pair below: a thread-confined cache that lives as long as its thread.
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    @Override
    public void setMempolicy(int mode, long[] nodeWords, int count)
    {
        Scratch scratch = SCRATCH.get();
        MemorySegment mask = MemorySegment.NULL;
        if (count > 0) {
            mask = scratch.mask;
            MemorySegment.copy(nodeWords, 0, mask, JAVA_LONG, 0, count);
        }
        try {
            long result = (long) Syscall3.HANDLE.invokeExact(scratch.callState, SET_MEMPOLICY, (long) mode, mask, count == 0 ? 0L : (long) count * 64 + 1);
            if (result < 0) {
                Downcalls.check(result, scratch.callState, "set_mempolicy", modeName(mode), "nodes " + BitSet.valueOf(Arrays.copyOf(nodeWords, count)));
            }
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    @Override
    public int getMempolicy(long[] nodeWords)
    {
        MempolicySyscalls.checkNodeWords(nodeWords);
        Scratch scratch = SCRATCH.get();
        try {
            long result = (long) Syscall5.HANDLE.invokeExact(scratch.callState, GET_MEMPOLICY, scratch.mode, scratch.mask, (long) MAX_NODES + 1, 0L, 0L);
            if (result < 0) {
                Downcalls.check(result, scratch.callState, "get_mempolicy");
            }
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
        MemorySegment.copy(scratch.mask, JAVA_LONG, 0, nodeWords, 0, MAX_NODES / 64);
        return scratch.mode.get(JAVA_INT, 0);
    }

    private static final class Scratch
    {
        private final MemorySegment callState;
        private final MemorySegment mode;
        private final MemorySegment mask;

        Scratch()
        {
            // An automatic arena: freed when the thread (and with it this scratch) is gone.
            Arena arena = Arena.ofAuto();
            callState = Downcalls.allocateCallState(arena);
            mode = arena.allocate(JAVA_INT);
            mask = arena.allocate(MAX_NODES / 8, 8);
        }
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
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            MemorySegment mode = arena.allocate(JAVA_INT);
            MemorySegment mask = arena.allocate(MAX_NODES / 8, 8);
            long result = (long) Syscall5.HANDLE.invokeExact(callState, GET_MEMPOLICY, mode, mask, (long) MAX_NODES + 1, address, (long) flags);
            Downcalls.check(result, callState, "get_mempolicy", "addr 0x" + Long.toHexString(address), "flags " + flags);
            return new KernelMempolicy(modeOf(mode.get(JAVA_INT, 0)), BitSet.valueOf(mask.toArray(JAVA_BYTE)));
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    @Override
    public void mbind(long address, long length, int mode, BitSet nodes, int flags)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            long[] words = nodes.toLongArray();
            long result = (long) Syscall6.HANDLE.invokeExact(callState, MBIND, address, length, (long) mode, encode(arena, words), MempolicySyscalls.maxnode(words),
                    (long) flags);
            Downcalls.check(result, callState, "mbind", "addr 0x" + Long.toHexString(address), length + " bytes", modeName(mode), "nodes " + nodes,
                    "flags " + flags);
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    @Override
    public long pageSize()
    {
        try {
            return (int) Getpagesize.HANDLE.invokeExact();
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    private static MemorySegment encode(Arena arena, long[] words)
    {
        if (words.length == 0) {
            return MemorySegment.NULL;
        }
        MemorySegment mask = arena.allocate((long) words.length * 8, 8);
        MemorySegment.copy(words, 0, mask, JAVA_LONG, 0, words.length);
        return mask;
    }
}
