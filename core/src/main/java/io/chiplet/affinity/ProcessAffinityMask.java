package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.AffinityMaskSource;
import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The live process's affinity mask for topology discovery: its main thread's (tid = pid), not the calling thread's,
 * which may already be pinned by us; the CPUs the process may use are what discovery reports.
 *
 * <p>Read as the kernel prints it in {@code /proc/self/status} ({@code Cpus_allowed_list}, the main thread's mask,
 * the same bits {@code sched_getaffinity(pid)} returns) rather than with that syscall: a JVM that only discovers the
 * topology (the CLI's {@code topology}, {@code plan}, {@code advise}) then links no downcall at all, which at its
 * start costs more than the whole discovery (docs/native.md, start-up).
 */
public final class ProcessAffinityMask
        implements AffinityMaskSource
{
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final String KEY = "Cpus_allowed_list:";

    @Override
    public Optional<CpuSet> affinityMask()
    {
        if (!NativeAccess.isLinux()) {
            return Optional.empty();
        }
        try {
            return parse(new String(Files.readAllBytes(STATUS), StandardCharsets.US_ASCII));
        }
        catch (IOException | IllegalArgumentException e) {
            // No procfs (a sandbox): the cgroup cpuset still restricts the CPUs.
            return Optional.empty();
        }
    }

    /** The {@code Cpus_allowed_list} of a {@code /proc/<pid>/status} text; empty when the line is missing. */
    static Optional<CpuSet> parse(String status)
    {
        int at = status.indexOf(KEY);
        if (at < 0) {
            return Optional.empty();
        }
        int end = status.indexOf('\n', at);
        return Optional.of(CpuSet.parseList(status.substring(at + KEY.length(), end < 0 ? status.length() : end).strip()));
    }
}
