package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.AffinityMaskSource;
import io.chiplet.topology.CpuSet;

import java.util.Optional;

/**
 * The live process's affinity mask for topology discovery, read with {@code sched_getaffinity} on the process's
 * main thread (tid = pid). Not the calling thread's: that one may already be pinned by us, and the CPUs the
 * process may use are what discovery reports.
 */
public final class ProcessAffinityMask
        implements AffinityMaskSource
{
    @Override
    public Optional<CpuSet> affinityMask()
    {
        if (!NativeAccess.isLinux()) {
            return Optional.empty();
        }
        try {
            return Optional.of(SchedSyscalls.getAffinity((int) ProcessHandle.current().pid()));
        }
        catch (NativeCallException | UnsupportedOperationException e) {
            // No mask (seccomp, an exotic libc): cgroup and /proc/self/status still restrict the CPUs.
            return Optional.empty();
        }
    }
}
