package io.chiplet.affinity;

import io.chiplet.topology.CgroupCpuset;
import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

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
 * @param allowed online CPUs inside this process's cpuset
 */
public record AllowedCpus(CpuSet present, CpuSet online, CpuSet allowed)
{
    public AllowedCpus
    {
        requireNonNull(present, "present is null");
        requireNonNull(online, "online is null");
        requireNonNull(allowed, "allowed is null");
    }

    public static AllowedCpus live()
    {
        return read(Path.of("/"));
    }

    /**
     * Reads {@code sys/devices/system/cpu/{present,online}} and the cgroup cpuset under {@code fsRoot}.
     *
     * @throws io.chiplet.topology.TopologyException naming the file when a cgroup file is garbled
     */
    public static AllowedCpus read(Path fsRoot)
    {
        requireNonNull(fsRoot, "fsRoot is null");
        Path cpuDir = fsRoot.resolve("sys/devices/system/cpu");
        CpuSet online = readList(cpuDir.resolve("online")).orElseThrow(() ->
                new IllegalStateException("cannot read " + cpuDir.resolve("online") + ": expected a cpulist like 0-3"));
        CpuSet present = readList(cpuDir.resolve("present")).orElse(online);
        CpuSet cpuset = CgroupCpuset.read(fsRoot).cpus().orElse(online);
        return new AllowedCpus(present, online, online.intersect(cpuset));
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
            throw new IllegalArgumentException("cannot pin to an empty CPU set (allowed: " + allowed.toList() + ")");
        }
        CpuSet refused = cpus.minus(allowed);
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
            why = "; it is outside this process's cgroup cpuset";
        }
        String subject = refused.size() == 1 ? "CPU " + cpu + " is" : "CPUs " + refused.toList() + " are";
        throw new IllegalArgumentException(subject + " not allowed for this process (allowed: " + allowed.toList() + ")" + why);
    }

    private static Optional<CpuSet> readList(Path file)
    {
        return readString(file).map(text -> {
            try {
                return CpuSet.parseList(text);
            }
            catch (IllegalArgumentException e) {
                throw new IllegalStateException(file + ": " + e.getMessage(), e);
            }
        });
    }

    private static Optional<String> readString(Path file)
    {
        try {
            return Optional.of(Files.readString(file));
        }
        catch (NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
