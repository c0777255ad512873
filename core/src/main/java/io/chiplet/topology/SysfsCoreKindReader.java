package io.chiplet.topology;

import io.chiplet.topology.CoreKindRanking.CpuPerformance;
import io.chiplet.topology.CoreKindRanking.IntelCoreType;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.chiplet.topology.SysfsCpuReader.CPU_DIR;
import static java.util.Objects.requireNonNull;

/**
 * Reads the evidence of kinds of core ({@code cpu_capacity}, the {@code cpu_core}/{@code cpu_atom} PMUs,
 * {@code cpufreq}, the arm64 MIDR) and lets {@link CoreKindRanking} group and rank them. Part of one
 * {@link SysfsTopologyReader} discovery.
 */
final class SysfsCoreKindReader
{
    /** An arm64 CPU's MIDR_EL1, relative to its {@code cpuN/} directory. */
    private static final String MIDR = "regs/identification/midr_el1";

    private final SysfsFiles files;
    private final Unknowns unknowns;

    SysfsCoreKindReader(SysfsFiles files, Unknowns unknowns)
    {
        this.files = requireNonNull(files, "files is null");
        this.unknowns = requireNonNull(unknowns, "unknowns is null");
    }

    /**
     * Kinds of core from positive evidence only: a source ({@code cpu_capacity}, the {@code cpu_core}/{@code cpu_atom}
     * PMUs, {@code cpuinfo_max_freq}, {@code base_frequency}, the arm64 MIDR) is compared only when it is there for every core; one
     * that some cores lack is left out and said so. Missing data means "alike, and unknown", never another kind.
     */
    List<CoreKind> read(CpuSet online, List<Core> cores)
    {
        int first = online.first();
        String firstDir = CPU_DIR + "cpu" + first + "/";
        // the kernel exposes these for all CPUs or none, so the first CPU says whether to look at the others
        boolean hasCapacity = files.exists(firstDir + "cpu_capacity");
        boolean hasMax = files.exists(firstDir + "cpufreq/cpuinfo_max_freq");
        boolean hasBase = files.exists(firstDir + "cpufreq/base_frequency");
        boolean hasMidr = files.exists(firstDir + MIDR);
        CpuSet intelCore = files.readList("sys/devices/cpu_core/cpus").orElse(CpuSet.empty());
        CpuSet intelAtom = files.readList("sys/devices/cpu_atom/cpus").orElse(CpuSet.empty());
        boolean hasCoreType = !intelCore.union(intelAtom).isEmpty();
        if (hasCoreType && !intelCore.union(intelAtom).containsAll(online)) {
            unknowns.add("kinds of core: sys/devices/cpu_core/cpus and sys/devices/cpu_atom/cpus do not cover CPUs "
                    + online.minus(intelCore.union(intelAtom)) + "; core types not compared");
            hasCoreType = false;
        }

        int count = cores.size();
        long[] capacity = new long[count];
        long[] max = new long[count];
        long[] base = new long[count];
        BitSet lacksCapacity = new BitSet();
        BitSet lacksMax = new BitSet();
        BitSet lacksBase = new BitSet();
        ArmCorePart[] parts = new ArmCorePart[count];
        BitSet lacksMidr = new BitSet();
        for (int i = 0; i < count; i++) {
            String dir = CPU_DIR + "cpu" + cores.get(i).firstCpu() + "/";
            capacity[i] = hasCapacity ? positive(dir + "cpu_capacity", lacksCapacity, cores.get(i)) : 0;
            max[i] = hasMax ? positive(dir + "cpufreq/cpuinfo_max_freq", lacksMax, cores.get(i)) : 0;
            base[i] = hasBase ? positive(dir + "cpufreq/base_frequency", lacksBase, cores.get(i)) : 0;
            if (hasMidr) {
                Optional<String> midr = files.read(dir + MIDR);
                if (midr.isPresent()) {
                    parts[i] = ArmCorePart.parseMidr(dir + MIDR, midr.get());
                }
                else {
                    lacksMidr.or(cores.get(i).cpus().toBitSet());
                }
            }
        }
        hasCapacity = hasCapacity && withoutGaps("cpu_capacity", lacksCapacity);
        hasMax = hasMax && withoutGaps("cpufreq/cpuinfo_max_freq", lacksMax);
        hasBase = hasBase && withoutGaps("cpufreq/base_frequency", lacksBase);
        hasMidr = hasMidr && withoutGaps(MIDR, lacksMidr);

        List<CpuPerformance> performance = new ArrayList<>(online.size());
        for (int i = 0; i < count; i++) {
            OptionalLong coreCapacity = hasCapacity ? OptionalLong.of(capacity[i]) : OptionalLong.empty();
            for (int cpu : cores.get(i).cpus().toArray()) {
                IntelCoreType type = !hasCoreType ? IntelCoreType.UNKNOWN : intelCore.contains(cpu) ? IntelCoreType.CORE : IntelCoreType.ATOM;
                performance.add(new CpuPerformance(cpu, coreCapacity, type, hasBase ? base[i] : 0, hasMax ? max[i] : 0,
                        hasMidr ? Optional.of(parts[i]) : Optional.empty()));
            }
        }
        CoreKindRanking.Ranked ranked = CoreKindRanking.rank(performance);
        ranked.unknown().ifPresent(unknowns::add);
        return ranked.kinds();
    }

    /** A positive number from {@code file}, or 0 with the core's CPUs marked in {@code lacking} when it is absent or not positive. */
    private long positive(String file, BitSet lacking, Core core)
    {
        long value = optionalLong(file).orElse(0);
        if (value <= 0) {
            lacking.or(core.cpus().toBitSet());
            return 0;
        }
        return value;
    }

    private boolean withoutGaps(String file, BitSet lacking)
    {
        if (lacking.isEmpty()) {
            return true;
        }
        unknowns.add("kinds of core: CPUs " + CpuSet.fromBitSet(lacking) + " have no " + file + " where others have one; "
                + file + " not compared (missing data is no evidence of another kind)");
        return false;
    }

    private OptionalLong optionalLong(String file)
    {
        return files.read(file).map(text -> OptionalLong.of(SysfsFiles.parseLong(file, text))).orElse(OptionalLong.empty());
    }

    /** {@code cores} with the kind each belongs to; as they are when all are alike. */
    static List<Core> withKinds(List<Core> cores, List<CoreKind> kinds)
    {
        if (kinds.isEmpty()) {
            return cores;
        }
        return cores.stream()
                .map(core -> new Core(core.packageId(), core.coreId(), core.cpus(), kinds.stream()
                        .filter(kind -> kind.cpus().contains(core.firstCpu()))
                        .map(CoreKind::name)
                        .findFirst()))
                .toList();
    }
}
