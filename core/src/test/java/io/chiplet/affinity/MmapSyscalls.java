package io.chiplet.affinity;

import io.chiplet.nativeio.Downcalls;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Anonymous {@code mmap}/{@code munmap}, and {@code mincore} to see which pages exist: page-aligned memory no one has touched yet, so a memory policy set with
 * {@code mbind} decides where its pages land (an {@link Arena} zeroes what it allocates, touching every page on
 * the allocating thread's node before any policy could apply). A test helper of {@link MemoryPolicyTest}: nothing in
 * the main code maps memory (the arena it served, documented for shuffle buffers, was used by nothing and is gone).
 */
final class MmapSyscalls
{
    private static final int PROT_READ = 0x1;
    private static final int PROT_WRITE = 0x2;
    // Same values on x86-64 and aarch64.
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final long MAP_FAILED = -1;

    private static final MethodHandle MMAP = Downcalls.downcallWithErrno("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = Downcalls.downcallWithErrno("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle MINCORE = Downcalls.downcallWithErrno("mincore",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
    private static final MethodHandle GETPAGESIZE = Downcalls.downcall("getpagesize", FunctionDescriptor.of(JAVA_INT));

    private MmapSyscalls() {}

    public static long pageSize()
    {
        try {
            return (int) GETPAGESIZE.invokeExact();
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    /** Maps {@code bytes} (a multiple of the page size) of private anonymous read-write memory. */
    public static MemorySegment mapAnonymous(long bytes)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            MemorySegment address = (MemorySegment) MMAP.invokeExact(callState, MemorySegment.NULL, bytes,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
            if (address.address() == MAP_FAILED) {
                Downcalls.check(-1, callState, "mmap", bytes + " bytes", "PROT_READ|PROT_WRITE", "MAP_PRIVATE|MAP_ANONYMOUS");
            }
            return address;
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    /** How many pages of {@code segment} (page-aligned) are resident in memory now ({@code mincore}). */
    public static long residentPages(MemorySegment segment)
    {
        long pageSize = pageSize();
        long pages = Math.ceilDiv(segment.byteSize(), pageSize);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            MemorySegment vector = arena.allocate(pages);
            int result = (int) MINCORE.invokeExact(callState, segment, segment.byteSize(), vector);
            Downcalls.check(result, callState, "mincore", "addr 0x" + Long.toHexString(segment.address()), segment.byteSize() + " bytes");
            long resident = 0;
            for (long page = 0; page < pages; page++) {
                resident += vector.get(JAVA_BYTE, page) & 1;
            }
            return resident;
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    public static void unmap(long address, long bytes)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            int result = (int) MUNMAP.invokeExact(callState, MemorySegment.ofAddress(address), bytes);
            Downcalls.check(result, callState, "munmap", "addr 0x" + Long.toHexString(address), bytes + " bytes");
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }
}
