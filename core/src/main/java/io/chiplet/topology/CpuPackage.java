package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/**
 * A physical package (socket) and its online CPUs, as the kernel groups them ({@code package_cpus}, before 5.4
 * {@code core_siblings}). {@code id} is its {@code physical_package_id}: -1 where the kernel gives none (s390 before
 * {@code socket_id}, POWER partitions without {@code ibm,chip-id}), and possibly shared by packages the kernel's masks
 * tell apart (IA-64 without PAL topology information numbers node boards, not sockets). hwloc reads packages the same way.
 */
public record CpuPackage(int id, CpuSet cpus)
{
    public CpuPackage
    {
        requireNonNull(cpus, "cpus is null");
    }
}
