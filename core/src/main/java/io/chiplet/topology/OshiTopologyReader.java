package io.chiplet.topology;

import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.CentralProcessor.LogicalProcessor;
import oshi.hardware.CentralProcessor.PhysicalProcessor;
import oshi.hardware.CentralProcessor.ProcessorCache;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The portable fallback where there is no sysfs (macOS, Windows): what oshi knows of packages, cores, logical CPUs
 * and NUMA nodes. oshi does not say which CPUs share a cache, nor the process's affinity, nor NUMA memory sizes
 * and distances; {@link Topology#unknowns()} says so, and chiplets fall back to NUMA nodes or packages.
 */
public final class OshiTopologyReader
        implements TopologyReader
{
    static final String SOURCE = "oshi";

    @Override
    public Topology read(int virtualChipletCores)
    {
        return DerivedChiplets.attach(readFacts(), virtualChipletCores);
    }

    Topology readFacts()
    {
        CentralProcessor processor;
        try {
            processor = new SystemInfo().getHardware().getProcessor();
        }
        catch (RuntimeException | LinkageError e) {
            // oshi throws unchecked exceptions (and JNA linkage errors) on platforms it cannot read
            throw new TopologyException("oshi cannot read this machine's processors (" + System.getProperty("os.name") + "): " + e, e);
        }
        return facts(processor.getLogicalProcessors(), processor.getPhysicalProcessors(), processor.getProcessorCaches());
    }

    /** Pure mapping of what oshi reports; package-private so that tests can feed it any machine. */
    static Topology facts(List<LogicalProcessor> logical, List<PhysicalProcessor> physical, List<ProcessorCache> processorCaches)
    {
        if (logical.isEmpty()) {
            throw new TopologyException("expected oshi to report at least one logical processor but it reported none");
        }
        Map<LogicalProcessor, Integer> cpuNumbers = cpuNumbers(logical);

        BitSet onlineBits = new BitSet();
        Map<Integer, BitSet> packageBits = new TreeMap<>();
        Map<Integer, BitSet> nodeBits = new TreeMap<>();
        Map<CoreKey, BitSet> coreBits = new HashMap<>();
        for (LogicalProcessor processor : logical) {
            int cpu = cpuNumbers.get(processor);
            onlineBits.set(cpu);
            packageBits.computeIfAbsent(processor.getPhysicalPackageNumber(), key -> new BitSet()).set(cpu);
            nodeBits.computeIfAbsent(Math.max(processor.getNumaNode(), 0), key -> new BitSet()).set(cpu);
            coreBits.computeIfAbsent(new CoreKey(processor.getPhysicalPackageNumber(), processor.getPhysicalProcessorNumber()), key -> new BitSet()).set(cpu);
        }
        CpuSet online = CpuSet.fromBitSet(onlineBits);

        List<CpuPackage> packages = packageBits.entrySet().stream()
                .map(entry -> new CpuPackage(entry.getKey(), CpuSet.fromBitSet(entry.getValue())))
                .toList();
        List<NumaNode> numaNodes = nodeBits.entrySet().stream()
                .map(entry -> new NumaNode(entry.getKey(), CpuSet.fromBitSet(entry.getValue()), OptionalLong.empty(), new TreeMap<>()))
                .toList();

        Map<CoreKey, Integer> efficiencies = physical.stream()
                .collect(Collectors.toMap(core -> new CoreKey(core.getPhysicalPackageNumber(), core.getPhysicalProcessorNumber()), PhysicalProcessor::getEfficiency, (a, b) -> a));
        List<CoreKind> coreKinds = coreKinds(coreBits, efficiencies);
        List<Core> cores = coreBits.entrySet().stream()
                .map(entry -> {
                    CpuSet cpus = CpuSet.fromBitSet(entry.getValue());
                    Optional<String> kind = coreKinds.stream().filter(coreKind -> coreKind.cpus().contains(cpus.first())).map(CoreKind::name).findFirst();
                    return new Core(entry.getKey().packageId(), entry.getKey().coreId(), cpus, kind);
                })
                .sorted(Comparator.comparingInt(Core::firstCpu))
                .toList();

        List<String> unknowns = new ArrayList<>();
        unknowns.add("L3 groups: oshi does not report which CPUs share an L3; chiplets fall back to NUMA nodes or packages");
        unknowns.add("caches: oshi reports " + describe(processorCaches) + " but not which CPUs share each instance; no cache instances are listed");
        unknowns.add("allowed CPUs: oshi does not report this process's affinity mask or cpuset; all online CPUs are taken as allowed");
        unknowns.add("allowed memory nodes: oshi does not report this process's cpuset.mems; every NUMA node is taken as allowed");
        unknowns.add("present CPUs: oshi lists online CPUs only; offline CPUs are not known");
        unknowns.add("NUMA nodes: oshi reports which node each CPU is on but neither memory sizes, distances nor CPU-less nodes");
        unknowns.add("dies and clusters: oshi does not report them");

        return new Topology(
                SOURCE,
                online,
                online,
                online,
                packages,
                List.of(),
                List.of(),
                numaNodes,
                Topology.allNodes(numaNodes),
                List.of(),
                cores,
                coreKinds,
                List.of(),
                unknowns);
    }

    /**
     * oshi numbers processors within a Windows processor group; where numbers repeat across groups, CPUs are
     * numbered in (group, number) order so that every logical processor keeps a distinct number.
     */
    private static Map<LogicalProcessor, Integer> cpuNumbers(List<LogicalProcessor> logical)
    {
        List<LogicalProcessor> ordered = logical.stream()
                .sorted(Comparator.comparingInt(LogicalProcessor::getProcessorGroup).thenComparingInt(LogicalProcessor::getProcessorNumber))
                .toList();
        boolean distinct = ordered.stream().map(LogicalProcessor::getProcessorNumber).distinct().count() == ordered.size();
        boolean inRange = ordered.stream().allMatch(processor -> processor.getProcessorNumber() >= 0 && processor.getProcessorNumber() < CpuSet.MAX_CPUS);
        Map<LogicalProcessor, Integer> numbers = new HashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            numbers.put(ordered.get(i), distinct && inRange ? ordered.get(i).getProcessorNumber() : i);
        }
        return numbers;
    }

    /** oshi's efficiency class is higher for more performant cores; one class means all cores are alike. */
    private static List<CoreKind> coreKinds(Map<CoreKey, BitSet> coreBits, Map<CoreKey, Integer> efficiencies)
    {
        TreeSet<Integer> classes = new TreeSet<>(Comparator.reverseOrder());
        coreBits.keySet().forEach(key -> classes.add(efficiencies.getOrDefault(key, 0)));
        if (classes.size() < 2) {
            return List.of();
        }
        List<CoreKind> kinds = new ArrayList<>();
        int rank = 0;
        for (int efficiency : classes) {
            BitSet bits = new BitSet();
            coreBits.forEach((key, cpus) -> {
                if (efficiencies.getOrDefault(key, 0) == efficiency) {
                    bits.or(cpus);
                }
            });
            String name = classes.size() == 2 ? (rank == 0 ? CoreKind.PERFORMANCE : CoreKind.EFFICIENCY) : "kind-" + rank;
            kinds.add(new CoreKind(name, rank, CpuSet.fromBitSet(bits)));
            rank++;
        }
        return List.copyOf(kinds);
    }

    private static String describe(List<ProcessorCache> caches)
    {
        if (caches.isEmpty()) {
            return "no caches";
        }
        return caches.stream()
                .sorted(Comparator.comparingInt(ProcessorCache::getLevel))
                .map(cache -> "L" + cache.getLevel() + " " + cache.getType().name().toLowerCase(Locale.ROOT) + " " + Integer.toUnsignedLong(cache.getCacheSize()) + " bytes")
                .distinct()
                .collect(Collectors.joining(", "));
    }

    private record CoreKey(int packageId, int coreId) {}
}
