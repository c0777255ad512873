package io.chiplet.affinity;

import io.chiplet.topology.CgroupCpuset;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.ProcessCpus;

import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * Which CPUs this process may be pinned to: the online CPUs within its cgroup cpuset (v1 or v2, as
 * {@link CgroupCpuset} finds it). A thread's own affinity mask does not limit this: {@code sched_setaffinity} may
 * widen it again up to the cpuset.
 *
 * <p>Checked before every pin because the kernel is lenient in a way that hides mistakes: a mask that holds at least
 * one allowed CPU succeeds, silently dropping the others; only a mask with none fails, with a bare {@code EINVAL}.
 *
 * @param present CPUs the kernel knows ({@code sys/devices/system/cpu/present})
 * @param online CPUs that are online
 * @param cpus online CPUs inside this process's cpuset
 */
public record PinnableCpus(CpuSet present, CpuSet online, CpuSet cpus)
{
    public PinnableCpus
    {
        requireNonNull(present, "present is null");
        requireNonNull(online, "online is null");
        requireNonNull(cpus, "cpus is null");
    }

    public static PinnableCpus live()
    {
        return read(Path.of("/"));
    }

    /**
     * Reads {@code sys/devices/system/cpu/{present,online}} and the cgroup cpuset under {@code fsRoot}, through the
     * one computation topology discovery uses too ({@link ProcessCpus}): the allowed CPUs are its cpuset bound.
     *
     * @throws io.chiplet.topology.TopologyException naming the file when the online CPUs are missing or a file is garbled
     */
    public static PinnableCpus read(Path fsRoot)
    {
        ProcessCpus cpus = ProcessCpus.read(requireNonNull(fsRoot, "fsRoot is null"));
        return new PinnableCpus(cpus.present(), cpus.online(), cpus.cpuset());
    }

    /**
     * This process's CPUs as a launcher started under {@code taskset} or {@code numactl} must honour them: the cpuset's
     * online CPUs within the affinity mask the process started with. The kernel would let a thread widen its mask
     * again up to the cpuset, but a user who narrowed the launcher meant the command to stay inside (as
     * {@code chiplet topology} marks the other CPUs not allowed).
     */
    public PinnableCpus withinMask(CpuSet mask)
    {
        requireNonNull(mask, "mask is null");
        return new PinnableCpus(present, online, cpus.intersect(mask));
    }

    /**
     * Throws unless every CPU of {@code cpus} is allowed, naming the first one that is not and why.
     *
     * @throws IllegalArgumentException e.g. "CPU 7 is not allowed for this process (allowed: 0-1)"
     */
    public void check(CpuSet cpus)
    {
        requireNonNull(cpus, "cpus is null");
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot pin to an empty CPU set (allowed: " + this.cpus.toList() + ")");
        }
        CpuSet refused = cpus.minus(this.cpus);
        if (refused.isEmpty()) {
            return;
        }
        int cpu = refused.first();
        String why;
        if (!present.contains(cpu)) {
            why = "; this machine has no such CPU";
        }
        else if (!online.contains(cpu)) {
            why = "; it is offline";
        }
        else {
            why = "; it is outside this process's cgroup cpuset or affinity mask";
        }
        String subject = refused.size() == 1 ? "CPU " + cpu + " is" : "CPUs " + refused.toList() + " are";
        throw new IllegalArgumentException(subject + " not allowed for this process (allowed: " + this.cpus.toList() + ")" + why);
    }
}
