package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.CpuSet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The scheduler syscall family: {@code sched_setaffinity}, {@code sched_getaffinity}, {@code gettid} and
 * {@code getcpu}, through this JVM's native path ({@link NativeAccess}: FFM on JDK 22+, JNA direct mapping on 17 and
 * 21). Where neither is available every call throws {@link UnsupportedOperationException} saying why.
 *
 * <p>CPU masks are {@code unsigned long} bit arrays, as {@code cpu_set_t}. Reads use a mask of
 * {@link CpuSet#MAX_CPUS} bits, which the kernel accepts whatever its {@code nr_cpu_ids}; writes pass only as many
 * 64-bit words as the highest CPU needs (the kernel zero-fills the rest).
 */
final class SchedSyscalls
{
    /** Bytes of the largest mask: {@link CpuSet#MAX_CPUS} bits. */
    public static final int MAX_MASK_BYTES = SchedCalls.MAX_MASK_BYTES;

    private static final SchedCalls CALLS = SchedCalls.forPath(NativeAccess.path());

    // Thread.isVirtual() is Java 21; on 17 there are no virtual threads and this handle is absent.
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    // A platform thread's id never changes: asked once per thread. A thread-confined cache, not shared state.
    private static final ThreadLocal<int[]> TID = ThreadLocal.withInitial(() -> new int[1]);

    private SchedSyscalls() {}

    /**
     * The calling thread's Linux thread id. A platform thread's id never changes, so it is asked once per thread; a
     * virtual thread gets its carrier's id at this instant.
     */
    public static int gettid()
    {
        if (isVirtual(Thread.currentThread())) {
            return CALLS.gettid();
        }
        int[] cached = TID.get();
        if (cached[0] == 0) {
            cached[0] = CALLS.gettid();
        }
        return cached[0];
    }

    /** The CPU the calling thread is running on now (may change the instant this returns). */
    public static int currentCpu()
    {
        return CALLS.currentCpu();
    }

    /** {@code getcpu(2)}: the CPU and NUMA node the calling thread is running on now. */
    public static CpuLocation getcpu()
    {
        return CALLS.getcpu();
    }

    /**
     * {@code sched_setaffinity(tid, ...)}; {@code tid} 0 is the calling thread.
     *
     * @throws io.chiplet.nativeio.NativeCallException naming the thread, the CPUs and the errno
     */
    public static void setAffinity(int tid, CpuSet cpus)
    {
        CALLS.setAffinity(tid, cpus);
    }

    /**
     * {@code sched_getaffinity(tid, ...)}; {@code tid} 0 is the calling thread.
     *
     * @throws io.chiplet.nativeio.NativeCallException naming the thread and the errno ({@code ESRCH}: no such thread)
     */
    public static CpuSet getAffinity(int tid)
    {
        return CALLS.getAffinity(tid);
    }

    /**
     * {@code sched_getaffinity(tid, ...)} into {@code words} ({@code cpu_set_t} words, at least
     * {@link #MAX_MASK_BYTES} / 8 of them), nothing allocated; returns the words the kernel's mask takes.
     */
    public static int getAffinity(int tid, long[] words)
    {
        return CALLS.getAffinity(tid, words);
    }

    /** {@code sched_setaffinity(tid, ...)} from the first {@code count} of {@code words}, nothing allocated. */
    public static void setAffinity(int tid, long[] words, int count)
    {
        CALLS.setAffinity(tid, words, count);
    }

    static RuntimeException rethrow(Throwable t)
    {
        if (t instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }

    private static boolean isVirtual(Thread thread)
    {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static MethodHandle isVirtualHandle()
    {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        }
        catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
