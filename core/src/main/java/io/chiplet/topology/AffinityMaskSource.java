package io.chiplet.topology;

import java.util.Optional;

/**
 * Where the live machine's process affinity mask comes from ({@code sched_getaffinity}, implemented in the native
 * layer). Kept behind this interface so topology discovery stays plain Java and a snapshot never consults the
 * machine it runs on.
 */
@FunctionalInterface
public interface AffinityMaskSource
{
    /** A source that knows no mask: nothing beyond cgroup and {@code /proc/self/status} restricts the CPUs. */
    AffinityMaskSource NONE = Optional::empty;

    /** The CPUs this process may run on, or empty when the mask cannot be read. */
    Optional<CpuSet> affinityMask();
}
