package io.chiplet.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Everything perf counter availability depends on, read from files under a filesystem root so that tests use
 * fixtures: the {@code perf_event_paranoid} level, the PMUs the kernel registered (name to dynamic type id), the
 * CPU's identity, and whether this process holds {@code CAP_PERFMON} or {@code CAP_SYS_ADMIN}.
 *
 * @param paranoid {@code proc/sys/kernel/perf_event_paranoid}; empty when the kernel has no perf_event support
 * @param pmus {@code sys/bus/event_source/devices/<pmu>/type}, by PMU name
 * @param cpu the CPU identity from {@code proc/cpuinfo}
 * @param perfmonCapable the effective capabilities ({@code proc/self/status CapEff}) hold CAP_PERFMON or
 * CAP_SYS_ADMIN, which lift the paranoid restrictions
 */
public record PerfPlatform(OptionalInt paranoid, Map<String, Integer> pmus, Optional<CpuIdentity> cpu, boolean perfmonCapable)
{
    static final int CAP_SYS_ADMIN = 21;
    static final int CAP_PERFMON = 38;

    public PerfPlatform
    {
        requireNonNull(paranoid, "paranoid is null");
        pmus = Map.copyOf(requireNonNull(pmus, "pmus is null"));
        requireNonNull(cpu, "cpu is null");
    }

    public static PerfPlatform read(Path fsRoot)
    {
        requireNonNull(fsRoot, "fsRoot is null");
        return new PerfPlatform(readParanoid(fsRoot), readPmus(fsRoot), CpuIdentity.read(fsRoot), readPerfmonCapable(fsRoot));
    }

    /**
     * The core PMU: {@code cpu} on x86 and most arm64 kernels, {@code cpu_core} on hybrid Intel parts, or an
     * {@code armv8_*} PMU. Absent in most virtual machines, whose hypervisor exposes no PMU.
     */
    public Optional<Map.Entry<String, Integer>> corePmu()
    {
        // prefer the performance cores' PMU on hybrid parts: that is where pinned analytics workers run
        for (String name : List.of("cpu", "cpu_core")) {
            if (pmus.containsKey(name)) {
                return Optional.of(Map.entry(name, pmus.get(name)));
            }
        }
        return new TreeMap<>(pmus).entrySet().stream()
                .filter(entry -> entry.getKey().startsWith("cpu_") || entry.getKey().startsWith("armv8"))
                .findFirst();
    }

    /**
     * Whether counters may include kernel mode: perf_event_paranoid &lt;= 1 or CAP_PERFMON. At level 2 an
     * unprivileged process must set {@code exclude_kernel}, and events that only occur in kernel mode read 0.
     */
    public boolean kernelCountingAllowed()
    {
        return perfmonCapable || (paranoid.isPresent() && paranoid.getAsInt() <= 1);
    }

    static OptionalInt readParanoid(Path fsRoot)
    {
        Path file = fsRoot.resolve("proc/sys/kernel/perf_event_paranoid");
        String text;
        try {
            text = Files.readString(file).strip();
        }
        catch (NoSuchFileException e) {
            return OptionalInt.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        try {
            return OptionalInt.of(Integer.parseInt(text));
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException(file + ": expected an integer perf_event_paranoid level, found '" + text + "'");
        }
    }

    static Map<String, Integer> readPmus(Path fsRoot)
    {
        Path devices = fsRoot.resolve("sys/bus/event_source/devices");
        if (!Files.isDirectory(devices)) {
            return Map.of();
        }
        Map<String, Integer> pmus = new TreeMap<>();
        try (Stream<Path> entries = Files.list(devices)) {
            for (Path pmu : entries.toList()) {
                Path typeFile = pmu.resolve("type");
                if (!Files.isRegularFile(typeFile)) {
                    continue;
                }
                String text = Files.readString(typeFile).strip();
                try {
                    pmus.put(pmu.getFileName().toString(), Integer.parseInt(text));
                }
                catch (NumberFormatException e) {
                    throw new IllegalArgumentException(typeFile + ": expected an integer PMU type id, found '" + text + "'");
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot list " + devices, e);
        }
        return pmus;
    }

    static boolean readPerfmonCapable(Path fsRoot)
    {
        Path status = fsRoot.resolve("proc/self/status");
        List<String> lines;
        try {
            lines = Files.readAllLines(status);
        }
        catch (NoSuchFileException e) {
            return false;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + status, e);
        }
        for (String line : lines) {
            if (line.startsWith("CapEff:")) {
                String hex = line.substring("CapEff:".length()).strip();
                long capabilities;
                try {
                    capabilities = Long.parseUnsignedLong(hex, 16);
                }
                catch (NumberFormatException e) {
                    throw new IllegalArgumentException(status + ": CapEff should be a hexadecimal mask, found '" + hex + "'");
                }
                return (capabilities & (1L << CAP_PERFMON)) != 0 || (capabilities & (1L << CAP_SYS_ADMIN)) != 0;
            }
        }
        return false;
    }
}
