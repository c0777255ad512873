package io.chiplet.affinity;

import io.chiplet.topology.Chiplet;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.util.Objects.requireNonNull;

/**
 * An {@link Arena} for shuffle and sort buffers whose memory lives on one chiplet's NUMA node. Each segment is
 * its own anonymous mapping: page-aligned, bound to the node with {@code mbind(MPOL_BIND)} before any page exists,
 * then first-touched by the allocating thread, so that allocation cost (page faults, zeroing) is paid up front by
 * the thread that will use the buffer, which is expected to be pinned to the chiplet already.
 *
 * <p>Segments are zero-filled (fresh anonymous pages). Closing the arena unmaps every segment; the arena is
 * shared, so segments may be handed to other threads. Allocation rounds each request up to whole pages: use it for
 * large buffers, not for many small objects.
 */
public final class ChipletArena
        implements Arena
{
    private final Arena scope = Arena.ofShared();
    private final MemoryPolicy policy;
    private final long pageSize = MmapSyscalls.pageSize();

    private ChipletArena(MemoryPolicy policy)
    {
        this.policy = requireNonNull(policy, "policy is null");
    }

    /** Memory on {@code chiplet}'s NUMA node. */
    public static ChipletArena forChiplet(Chiplet chiplet)
    {
        requireNonNull(chiplet, "chiplet is null");
        return forNode(chiplet.numaNode());
    }

    /** Memory on NUMA node {@code node}. */
    public static ChipletArena forNode(int node)
    {
        return new ChipletArena(MemoryPolicy.bind(List.of(node)));
    }

    public MemoryPolicy policy()
    {
        return policy;
    }

    @Override
    @SuppressWarnings("restricted") // sizing the mapping mmap returned, and tying its munmap to this arena
    public MemorySegment allocate(long byteSize, long byteAlignment)
    {
        if (byteSize < 0) {
            throw new IllegalArgumentException("expected a size of at least 0 bytes but found " + byteSize);
        }
        if (byteAlignment <= 0 || Long.bitCount(byteAlignment) != 1 || byteAlignment > pageSize) {
            throw new IllegalArgumentException("expected an alignment that is a power of two up to the page size " + pageSize
                    + " but found " + byteAlignment);
        }
        long mapped = Math.max(pageSize, Math.ceilDiv(byteSize, pageSize) * pageSize);
        MemorySegment raw = MmapSyscalls.mapAnonymous(mapped).reinterpret(mapped);
        try {
            policy.applyTo(raw.address(), raw.byteSize(), false);
        }
        catch (RuntimeException e) {
            MmapSyscalls.unmap(raw.address(), mapped);
            throw e;
        }
        long address = raw.address();
        MemorySegment segment = raw.reinterpret(mapped, scope, unmapped -> MmapSyscalls.unmap(address, mapped));
        for (long offset = 0; offset < mapped; offset += pageSize) {
            segment.set(JAVA_BYTE, offset, (byte) 0);
        }
        return segment.asSlice(0, byteSize);
    }

    @Override
    public MemorySegment.Scope scope()
    {
        return scope.scope();
    }

    @Override
    public void close()
    {
        scope.close();
    }
}
