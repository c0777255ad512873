package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;

import java.util.Optional;

/**
 * What a thread is bound to: CPUs and an optional memory policy, checked against the CPUs this process may use when
 * {@link ThreadBinder#prepare} made it and kept in the kernel's form, so that each bind passes the words as they are.
 * Immutable.
 */
public final class PreparedAffinity
{
    private final CpuSet cpus;
    private final long[] cpuWords;
    private final Optional<MemoryPolicy> memory;
    private final int memoryMode;
    private final long[] nodeWords;

    PreparedAffinity(CpuSet cpus, Optional<MemoryPolicy> memory)
    {
        this.cpus = cpus;
        this.cpuWords = CpuMaskWords.of(cpus);
        this.memory = memory;
        this.memoryMode = memory.map(policy -> policy.mode().value()).orElse(0);
        long[] nodes = new long[memory.map(policy -> policy.nodes().isEmpty() ? 0 : policy.nodes().last() / 64 + 1).orElse(0)];
        memory.ifPresent(policy -> policy.nodes().forEach(node -> nodes[node >>> 6] |= 1L << (node & 63)));
        this.nodeWords = nodes;
    }

    public CpuSet cpus()
    {
        return cpus;
    }

    long[] cpuWords()
    {
        return cpuWords;
    }

    int memoryMode()
    {
        return memoryMode;
    }

    long[] nodeWords()
    {
        return nodeWords;
    }

    public Optional<MemoryPolicy> memory()
    {
        return memory;
    }

    @Override
    public String toString()
    {
        return "CPUs " + cpus.toList() + memory.map(policy -> ", memory " + policy).orElse("");
    }

    /** The kernel's refusal to bind {@code tid} ({@code 0}: the calling thread) to these CPUs, as one clear error. */
    RuntimeException refusal(NativeCallException e, int tid)
    {
        return switch (e.errno()) {
            case Errno.EINVAL -> new IllegalArgumentException("cannot bind to CPUs " + cpus.toList() + ": the kernel allows none of them for this "
                    + "process now (a CPU went offline or the cgroup cpuset changed) [" + e.getMessage() + "]", e);
            case Errno.ESRCH -> new IllegalArgumentException("cannot bind thread " + tid + ": it has ended [" + e.getMessage() + "]", e);
            case Errno.EPERM -> new IllegalArgumentException("cannot bind " + (tid == 0 ? "the calling thread" : "thread " + tid) + ": not permitted (another user's thread, or "
                    + "CAP_SYS_NICE missing) [" + e.getMessage() + "]", e);
            default -> e;
        };
    }
}
