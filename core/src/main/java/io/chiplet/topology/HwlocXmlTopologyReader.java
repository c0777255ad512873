package io.chiplet.topology;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.chiplet.topology.HwlocXmlElements.children;
import static java.util.Objects.requireNonNull;

/**
 * Reads the XML that {@code lstopo --of xml} writes (hwloc 2.x; the 1.x format where it costs little), so that an
 * operator can plan for a production machine from a laptop.
 *
 * <p>Which CPUs count as online and allowed is what hwloc recorded on the machine that wrote the file: the root
 * object's {@code cpuset} (online) and {@code allowed_cpuset} (the cgroup of that lstopo process). Files written
 * without {@code --whole-system} therefore already lack the CPUs that lstopo was not allowed to use. Likewise the
 * NUMA nodes memory may be allocated from are the root's {@code allowed_nodeset} (every node where the file has none).
 *
 * <p>The parts: {@link HwlocXmlParser} (a parser that fetches nothing), {@link HwlocXmlElements} (attributes, every
 * error naming the file), {@link HwlocXmlCpus} (present, online, allowed), {@link HwlocXmlObjects} (the object tree:
 * packages, dies, clusters, caches through {@link HwlocXmlCacheReader}, cores), {@link HwlocXmlNumaReader} (nodes and
 * distances) and {@link HwlocXmlCoreKindReader}.
 */
public final class HwlocXmlTopologyReader
        implements TopologyReader
{
    private final Path file;

    public HwlocXmlTopologyReader(Path file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    /**
     * @throws TopologyException naming the file when it is not hwloc XML, lacks a fact every machine has (a machine
     *         object with at least one CPU), or holds values no machine has (negative indexes or sizes)
     */
    @Override
    public Topology read(int virtualChipletCores)
    {
        Topology facts = readFacts();
        try {
            return DerivedChiplets.attach(facts, virtualChipletCores);
        }
        catch (IllegalArgumentException | IllegalStateException e) {
            // the facts passed every check above yet contradict each other (two packages claiming one CPU...)
            throw new TopologyException("expected a consistent machine in " + file + " but " + FileText.value(String.valueOf(e.getMessage())), e);
        }
    }

    /** Everything the file says, without chiplets (those are derived from these facts). */
    Topology readFacts()
    {
        Document document = HwlocXmlParser.parse(file);
        try {
            return facts(document);
        }
        catch (IllegalArgumentException e) {
            // a record refused a value (a cache of level 0...): the file, not this code, is at fault
            throw new TopologyException("expected hwloc XML describing a machine in " + file + " but " + FileText.value(String.valueOf(e.getMessage())), e);
        }
    }

    /** The root's {@code allowed_nodeset}: the nodes the lstopo process that wrote the file could allocate from. */
    private static SortedSet<Integer> allowedMemoryNodes(Element root, HwlocXmlElements elements, List<NumaNode> numaNodes)
    {
        SortedSet<Integer> all = Topology.allNodes(numaNodes);
        if (!root.hasAttribute("allowed_nodeset") || all.isEmpty()) {
            return all;
        }
        CpuSet ids = CpuSet.of(all.stream().mapToInt(Integer::intValue).toArray());
        return elements.bitmap(root, "allowed_nodeset").within(ids).stream().boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    private Topology facts(Document document)
    {
        Element topologyElement = document.getDocumentElement();
        if (!topologyElement.getTagName().equals("topology")) {
            throw new TopologyException("expected an hwloc topology (root element <topology>) in " + file + " but found <" + topologyElement.getTagName() + ">");
        }
        Element root = children(topologyElement, "object").stream().findFirst()
                .orElseThrow(() -> new TopologyException("expected the machine's <object> inside <topology> in " + file + " but found none"));

        HwlocXmlElements elements = new HwlocXmlElements(file);
        HwlocXmlCpus cpus = HwlocXmlCpus.read(document, root, elements);
        HwlocXmlObjects objects = HwlocXmlObjects.walk(root, elements, cpus);
        List<String> unknowns = new ArrayList<>();
        List<NumaNode> numaNodes = new HwlocXmlNumaReader(topologyElement, objects.numaElements(), elements, cpus, unknowns).nodes();
        List<CoreKind> coreKinds = HwlocXmlCoreKindReader.coreKinds(topologyElement, elements, cpus, unknowns);
        List<Core> kindedCores = objects.cores().stream()
                .map(core -> new Core(core.packageId(), core.coreId(), core.cpus(), HwlocXmlCoreKindReader.kindOf(core, coreKinds)))
                .sorted(Comparator.comparingInt(Core::firstCpu))
                .toList();
        if (objects.caches().stream().noneMatch(cache -> cache.level() == 3)) {
            unknowns.add("L3 groups: " + file + " lists no L3 cache; chiplets fall back to NUMA nodes or packages");
        }
        if (objects.pusWithoutCore() > 0) {
            unknowns.add("cores: " + file + " has " + objects.pusWithoutCore() + " PUs outside any Core object; each is counted as a core of its own");
        }
        return new Topology(
                "hwloc-xml:" + file,
                cpus.present(),
                cpus.online(),
                cpus.allowed(),
                objects.packages().stream().sorted(Comparator.comparingInt((CpuPackage found) -> found.id() < 0 ? Integer.MAX_VALUE : found.id())
                        .thenComparingInt(found -> found.cpus().first())).toList(),
                objects.dies().stream().sorted(Comparator.comparingInt(Die::packageId).thenComparingInt(Die::id)).toList(),
                objects.clusters().stream().sorted(Comparator.comparingInt(cluster -> cluster.cpus().first())).toList(),
                numaNodes,
                allowedMemoryNodes(root, elements, numaNodes),
                objects.caches().stream().sorted(Comparator.comparingInt(Cache::level).thenComparing(Cache::type).thenComparingInt(cache -> cache.cpus().first())).toList(),
                kindedCores,
                coreKinds,
                List.of(),
                unknowns);
    }
}
