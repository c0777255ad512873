package io.chiplet.rules;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Core's public API for adapters, as an allow-list: for each package of core, the classes an adapter (any class of
 * ours outside core: both plugins, the command line, the benchmarks, and whatever module comes next) may use.
 * {@link #WHOLE_PACKAGE} opens a package's public types; a list opens those classes (their nested types included) and
 * keeps the rest of the package core's own. Every package of core must be here ({@link PackageRulesAcrossModulesTest}
 * finds core's packages from its sources), so a new core package is a decision, not a default; an adapter that needs a
 * class not listed gets an accessor on a listed one, or the class is listed here on review.
 */
final class CoreApi
{
    /** Stands for every public type of the package. */
    static final String WHOLE_PACKAGE = "*";

    /** Core's packages and what of each adapters may use. */
    static final Map<String, Set<String>> FOR_ADAPTERS = table(
            whole("io.chiplet.nativeio"),
            whole("io.chiplet.affinity"),
            whole("io.chiplet.binding"),
            whole("io.chiplet.perf"),
            whole("io.chiplet.adaptive"),
            whole("io.chiplet.slots"),
            whole("io.chiplet.settings"),
            whole("io.chiplet.discovery"),
            whole("io.chiplet.measure"),
            whole("io.chiplet.report"),
            whole("io.chiplet.wire"),
            whole("io.chiplet.failopen"),
            whole("io.chiplet.engine"),
            whole("io.chiplet.engine.spark"),
            whole("io.chiplet.engine.trino"),
            whole("io.chiplet.advice"),
            // the finished targets and the rules adapters apply; not the planner's own steps (Assignment, SpreadLocator,
            // UsableChiplets, UsableTopology): adapters apply core's targets and decide nothing themselves (#24)
            Map.entry("io.chiplet.placement", Set.of("Bytes", "CpusetAlignment", "HostDivision", "HybridRouting", "MemoryBinding", "NoUsableChipletException",
                    "PlacementDomain", "PartitionBasis", "PartitionSizing", "PlacementPlanner", "PlacementRequest", "Plan", "Policy", "SkewAnalysis", "SkewEvidence",
                    "SkewHint", "SkewRule", "SpreadController", "StageWorkKinds", "UsableCapacity", "WorkerPlacement", "WorkerPlacements",
                    // core's test-jar fixture, for the benchmarks' 512-CPU machine
                    "SyntheticTopologies")),
            // the machine model and its readers' entry points; not how a chiplet's memory nodes are derived (ChipletMemory)
            // nor the sysfs and hwloc readers' parts
            Map.entry("io.chiplet.topology", Set.of("Cache", "CacheType", "Chiplet", "ChipletBasis", "Cluster", "Core", "CoreKind", "CpuPackage", "CpuSet", "Die",
                    "DiscoveryOptions", "MemoryKind", "NumaNode", "Topology", "TopologyException", "TopologyJson")));

    private CoreApi() {}

    /** Whether an adapter may use the top-level class {@code simpleName} of core's package {@code corePackage} under {@code api}. */
    static boolean allows(Map<String, Set<String>> api, String corePackage, String simpleName)
    {
        Set<String> open = api.getOrDefault(corePackage, Set.of());
        return open.contains(WHOLE_PACKAGE) || open.contains(simpleName);
    }

    private static Map.Entry<String, Set<String>> whole(String corePackage)
    {
        return Map.entry(corePackage, Set.of(WHOLE_PACKAGE));
    }

    @SafeVarargs
    private static Map<String, Set<String>> table(Map.Entry<String, Set<String>>... entries)
    {
        Map<String, Set<String>> table = new TreeMap<>();
        for (Map.Entry<String, Set<String>> entry : entries) {
            if (table.put(entry.getKey(), entry.getValue()) != null) {
                throw new IllegalStateException("package twice in core's API: " + entry.getKey());
            }
        }
        return Map.copyOf(table);
    }
}
