package io.chiplet.topology;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Reads the XML that {@code lstopo --of xml} writes (hwloc 2.x; the 1.x format where it costs little), so that an
 * operator can plan for a production machine from a laptop.
 *
 * <p>Which CPUs count as online and allowed is what hwloc recorded on the machine that wrote the file: the root
 * object's {@code cpuset} (online) and {@code allowed_cpuset} (the cgroup of that lstopo process). Files written
 * without {@code --whole-system} therefore already lack the CPUs that lstopo was not allowed to use.
 */
public final class HwlocXmlTopologyReader
        implements TopologyReader
{
    private static final Pattern DATA_CACHE_TYPE = Pattern.compile("L([1-9])Cache");
    private static final Pattern INSTRUCTION_CACHE_TYPE = Pattern.compile("L([1-9])iCache");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    // hwloc_distances_kind_e: HWLOC_DISTANCES_KIND_MEANS_LATENCY
    private static final int DISTANCES_KIND_MEANS_LATENCY = 4;

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
        Document document = parse();
        try {
            return new Extraction(document).topology();
        }
        catch (IllegalArgumentException e) {
            // a record refused a value (a cache of level 0...): the file, not this code, is at fault
            throw new TopologyException("expected hwloc XML describing a machine in " + file + " but " + FileText.value(String.valueOf(e.getMessage())), e);
        }
    }

    private Document parse()
    {
        DocumentBuilder builder = newDocumentBuilder();
        try (InputStream in = Files.newInputStream(file)) {
            return builder.parse(in, file.toUri().toString());
        }
        catch (SAXParseException e) {
            throw new TopologyException("expected hwloc XML in " + file + " but line " + e.getLineNumber() + " is not well-formed: " + oneLine(e.getMessage()), e);
        }
        catch (SAXException e) {
            throw new TopologyException("expected hwloc XML in " + file + " but it could not be parsed: " + oneLine(e.getMessage()), e);
        }
        catch (IOException e) {
            throw new TopologyException("cannot read hwloc XML file " + file + ": " + oneLine(e.toString()), e);
        }
    }

    /** A parser's message on one line, its non-ASCII escaped (it may quote the file). */
    private static String oneLine(String message)
    {
        String quoted = FileText.quote(String.valueOf(message));
        return quoted.substring(1, quoted.lastIndexOf('"'));
    }

    /**
     * A parser that never fetches anything: lstopo writes {@code <!DOCTYPE topology SYSTEM "hwloc2.dtd">}, which
     * must be neither loaded nor trusted, and no external entity may be resolved.
     */
    private static DocumentBuilder newDocumentBuilder()
    {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            // an internal DTD subset may still declare entities: secure processing caps their expansion (billion laughs),
            // and these caps are far below its defaults, since hwloc XML uses no entity at all
            factory.setAttribute("http://www.oracle.com/xml/jaxp/properties/entityExpansionLimit", "1000");
            factory.setAttribute("http://www.oracle.com/xml/jaxp/properties/totalEntitySizeLimit", "100000");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setNamespaceAware(false);
            factory.setValidating(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            // the default handler prints every parse error to stderr before it is thrown; the exception says it all
            builder.setErrorHandler(new ThrowingErrorHandler());
            return builder;
        }
        catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser does not support secure processing", e);
        }
    }

    /** One pass over one document; holds what was found so far. */
    private final class Extraction
    {
        private final Element topologyElement;
        private final Element root;
        private final CpuSet present;
        private final CpuSet online;
        private final CpuSet allowed;

        private final List<CpuPackage> packages = new ArrayList<>();
        private final List<Die> dies = new ArrayList<>();
        private final List<Cluster> clusters = new ArrayList<>();
        private final List<Element> numaElements = new ArrayList<>();
        private final List<Cache> caches = new ArrayList<>();
        private final List<Core> cores = new ArrayList<>();
        private final List<String> unknowns = new ArrayList<>();
        private final Map<Integer, Integer> clustersPerPackage = new HashMap<>();
        private int pusWithoutCore;

        Extraction(Document document)
        {
            topologyElement = document.getDocumentElement();
            if (!topologyElement.getTagName().equals("topology")) {
                throw new TopologyException("expected an hwloc topology (root element <topology>) in " + file + " but found <" + topologyElement.getTagName() + ">");
            }
            root = childElements(topologyElement, "object").stream().findFirst()
                    .orElseThrow(() -> new TopologyException("expected the machine's <object> inside <topology> in " + file + " but found none"));

            // offline CPUs have no PU object; the root's complete_cpuset still names them
            BitSet universe = bitmap(root, attributeOr(root, "complete_cpuset", "cpuset")).finitePart().toBitSet();
            var all = document.getElementsByTagName("object");
            for (int i = 0; i < all.getLength(); i++) {
                Element object = (Element) all.item(i);
                if (object.getAttribute("type").equals("PU")) {
                    int cpu = osIndex(object);
                    if (cpu >= CpuSet.MAX_CPUS) {
                        throw invalid(object, "os_index", "a CPU number below " + CpuSet.MAX_CPUS);
                    }
                    universe.set(cpu);
                }
            }
            present = CpuSet.fromBitSet(universe);
            CpuSet rootCpus = bitmap(root, "cpuset").within(present);
            // hwloc 1.x kept offline CPUs in cpuset and listed the online ones separately
            online = root.hasAttribute("online_cpuset") ? rootCpus.intersect(bitmap(root, "online_cpuset").within(present)) : rootCpus;
            allowed = root.hasAttribute("allowed_cpuset") ? bitmap(root, "allowed_cpuset").within(present).intersect(online) : online;
            if (online.isEmpty()) {
                throw new TopologyException("expected at least one CPU in the cpuset of " + describe(root) + " in " + file + " but found "
                        + (root.hasAttribute("cpuset") ? FileText.quote(root.getAttribute("cpuset")) : "no cpuset"));
            }
        }

        Topology topology()
        {
            visit(root, -1);
            List<NumaNode> numaNodes = numaNodes();
            List<CoreKind> coreKinds = coreKinds();
            List<Core> kindedCores = cores.stream()
                    .map(core -> new Core(core.packageId(), core.coreId(), core.cpus(), kindOf(core, coreKinds)))
                    .sorted(Comparator.comparingInt(Core::firstCpu))
                    .toList();
            if (caches.stream().noneMatch(cache -> cache.level() == 3)) {
                unknowns.add("L3 groups: " + file + " lists no L3 cache; chiplets fall back to NUMA nodes or packages");
            }
            if (pusWithoutCore > 0) {
                unknowns.add("cores: " + file + " has " + pusWithoutCore + " PUs outside any Core object; each is counted as a core of its own");
            }
            return new Topology(
                    "hwloc-xml:" + file,
                    present,
                    online,
                    allowed,
                    packages.stream().sorted(Comparator.comparingInt((CpuPackage found) -> found.id() < 0 ? Integer.MAX_VALUE : found.id())
                            .thenComparingInt(found -> found.cpus().first())).toList(),
                    dies.stream().sorted(Comparator.comparingInt(Die::packageId).thenComparingInt(Die::id)).toList(),
                    clusters.stream().sorted(Comparator.comparingInt(cluster -> cluster.cpus().first())).toList(),
                    numaNodes,
                    caches.stream().sorted(Comparator.comparingInt(Cache::level).thenComparing(Cache::type).thenComparingInt(cache -> cache.cpus().first())).toList(),
                    kindedCores,
                    coreKinds,
                    List.of(),
                    unknowns);
        }

        private void visit(Element object, int enclosingPackage)
        {
            int packageId = enclosingPackage;
            String type = object.getAttribute("type");
            switch (type) {
                // "Socket" is hwloc 1.x's name for a package
                case "Package", "Socket" -> {
                    // hwloc writes no os_index for a package the kernel gave no physical_package_id (-1)
                    packageId = object.hasAttribute("os_index") ? osIndex(object) : -1;
                    CpuSet cpus = cpus(object);
                    if (!cpus.isEmpty()) {
                        packages.add(new CpuPackage(packageId, cpus));
                    }
                }
                case "Die" -> {
                    CpuSet cpus = cpus(object);
                    if (!cpus.isEmpty()) {
                        dies.add(new Die(packageId, osIndex(object), cpus));
                    }
                }
                case "Group" -> {
                    CpuSet cpus = cpus(object);
                    // hwloc's Linux backend makes a Group of subtype Cluster from topology/cluster_cpus
                    if (object.getAttribute("subtype").equalsIgnoreCase("Cluster") && !cpus.isEmpty()) {
                        int ordinal = clustersPerPackage.merge(packageId, 1, Integer::sum) - 1;
                        int id = object.hasAttribute("os_index") ? osIndex(object) : ordinal;
                        clusters.add(new Cluster(packageId, id, cpus));
                    }
                }
                case "NUMANode" -> numaElements.add(object);
                case "Core" -> {
                    CpuSet cpus = cpus(object);
                    if (!cpus.isEmpty()) {
                        cores.add(new Core(packageId, osIndex(object), cpus, Optional.empty()));
                    }
                    // a core's PUs are accounted for by the core; do not count them as core-less below
                    return;
                }
                case "PU" -> {
                    CpuSet cpus = cpus(object);
                    if (!cpus.isEmpty()) {
                        pusWithoutCore++;
                        cores.add(new Core(packageId, osIndex(object), cpus, Optional.empty()));
                    }
                }
                default -> cache(object, type);
            }
            for (Element child : childElements(object, "object")) {
                visit(child, packageId);
            }
        }

        /** CPU caches only: hwloc's MemCache (memory-side caches in front of a NUMA node) is not one. */
        private void cache(Element object, String type)
        {
            int level;
            CacheType cacheType;
            Matcher data = DATA_CACHE_TYPE.matcher(type);
            Matcher instruction = INSTRUCTION_CACHE_TYPE.matcher(type);
            if (data.matches()) {
                level = Integer.parseInt(data.group(1));
                cacheType = cacheType(object);
            }
            else if (instruction.matches()) {
                level = Integer.parseInt(instruction.group(1));
                cacheType = CacheType.INSTRUCTION;
            }
            else if (type.equals("Cache")) {
                // hwloc 1.x: one type for every level, the level in "depth"
                level = intAttribute(object, "depth");
                cacheType = cacheType(object);
            }
            else {
                return;
            }
            CpuSet cpus = cpus(object);
            if (cpus.isEmpty()) {
                return;
            }
            if (level < 1 || level > 9) {
                throw invalid(object, "depth", "a cache level from 1 to 9");
            }
            long size = object.hasAttribute("cache_size") ? longAttribute(object, "cache_size") : 0;
            if (size < 0 || size > SysfsCacheReader.MAX_CACHE_BYTES) {
                throw invalid(object, "cache_size", "a byte count from 0 to " + SysfsCacheReader.MAX_CACHE_BYTES);
            }
            int lineSize = object.hasAttribute("cache_linesize") ? intAttribute(object, "cache_linesize") : 0;
            caches.add(new Cache(level, cacheType, size, Math.max(lineSize, 0), cpus));
        }

        private CacheType cacheType(Element object)
        {
            if (!object.hasAttribute("cache_type")) {
                return CacheType.UNIFIED;
            }
            // hwloc_obj_cache_type_e
            return switch (intAttribute(object, "cache_type")) {
                case 0 -> CacheType.UNIFIED;
                case 1 -> CacheType.DATA;
                case 2 -> CacheType.INSTRUCTION;
                default -> throw invalid(object, "cache_type", "0 (unified), 1 (data) or 2 (instruction)");
            };
        }

        private List<NumaNode> numaNodes()
        {
            Map<Integer, Map<Integer, Integer>> distances = distances();
            List<Integer> withoutMemory = new ArrayList<>();
            List<NumaNode> nodes = new ArrayList<>();
            CpuSet withNode = CpuSet.empty();
            List<Element> inIdOrder = new ArrayList<>(numaElements);
            inIdOrder.sort(Comparator.comparingInt(this::osIndex));
            for (Element element : inIdOrder) {
                int id = osIndex(element);
                OptionalLong memory = element.hasAttribute("local_memory") ? OptionalLong.of(longAttribute(element, "local_memory")) : OptionalLong.empty();
                if (memory.isPresent() && memory.getAsLong() < 0) {
                    throw invalid(element, "local_memory", "a non-negative byte count");
                }
                if (memory.isEmpty()) {
                    withoutMemory.add(id);
                }
                // hwloc gives a CPU-less node (HBM, CXL, GPU memory) the cpuset of the CPUs it is local to
                CpuSet local = cpus(element);
                String subtype = element.getAttribute("subtype");
                MemoryKind kind = switch (subtype) {
                    case "GPUMemory" -> MemoryKind.GPU;
                    case "MCDRAM", "HBM" -> MemoryKind.HBM;
                    case "NVM", "CXL-DRAM", "CXLMem" -> MemoryKind.CXL_PMEM;
                    case "DRAM" -> MemoryKind.DRAM;
                    default -> subtype.isEmpty() && !local.isEmpty() ? MemoryKind.DRAM : MemoryKind.UNKNOWN;
                };
                // hwloc gives several nodes one cpuset where memory tiers share CPUs (DRAM, then HBM or CXL): the first
                // node in id order holds those CPUs, the others are CPU-less nodes local to them, so no CPU is in two
                boolean cpuLess = local.isEmpty() || local.intersects(withNode);
                withNode = withNode.union(local);
                MemoryKind memoryKind = cpuLess && kind == MemoryKind.DRAM && subtype.isEmpty() ? MemoryKind.UNKNOWN : kind;
                nodes.add(new NumaNode(id, cpuLess ? CpuSet.empty() : local, memory, new TreeMap<>(distances.getOrDefault(id, Map.of())), local, memoryKind));
            }
            if (!withoutMemory.isEmpty()) {
                unknowns.add("NUMA memory: " + file + " records no local_memory for node(s) " + withoutMemory);
            }
            if (nodes.size() > 1 && distances.isEmpty()) {
                unknowns.add("NUMA distances: " + file + " has no NUMA latency matrix");
            }
            return nodes.stream().sorted(Comparator.comparingInt(NumaNode::id)).toList();
        }

        /** Distances by node id then node id, from hwloc 2.x {@code <distances2>} or hwloc 1.x {@code <distances>}. */
        private Map<Integer, Map<Integer, Integer>> distances()
        {
            for (Element element : childElements(topologyElement, "distances2")) {
                if (element.getAttribute("type").equals("NUMANode") && isLatency(element)) {
                    return distances2(element);
                }
            }
            var legacy = topologyElement.getElementsByTagName("distances");
            if (legacy.getLength() > 0) {
                return legacyDistances((Element) legacy.item(0));
            }
            return Map.of();
        }

        private boolean isLatency(Element distances)
        {
            if (distances.getAttribute("name").equals("NUMALatency")) {
                return true;
            }
            return distances.hasAttribute("kind") && (intAttribute(distances, "kind") & DISTANCES_KIND_MEANS_LATENCY) != 0;
        }

        private Map<Integer, Map<Integer, Integer>> distances2(Element element)
        {
            int count = intAttribute(element, "nbobjs");
            List<Long> indexes = numbers(element, "indexes");
            List<Long> values = numbers(element, "u64values");
            if (indexes.size() != count || values.size() != (long) count * count) {
                throw new TopologyException("expected " + count + " indexes and " + count * count + " values in <distances2> of " + file
                        + " but found " + indexes.size() + " and " + values.size());
            }
            List<Integer> ids = new ArrayList<>();
            String indexing = element.getAttribute("indexing");
            for (long index : indexes) {
                ids.add(switch (indexing) {
                    case "os" -> toInt(index, "<indexes> of <distances2>");
                    case "gp" -> nodeIdOfGpIndex(index);
                    default -> throw invalid(element, "indexing", "os or gp");
                });
            }
            Map<Integer, Map<Integer, Integer>> matrix = new TreeMap<>();
            for (int from = 0; from < count; from++) {
                Map<Integer, Integer> row = matrix.computeIfAbsent(ids.get(from), key -> new TreeMap<>());
                for (int to = 0; to < count; to++) {
                    row.put(ids.get(to), toInt(values.get(from * count + to), "<u64values> of <distances2>"));
                }
            }
            return matrix;
        }

        private int toInt(long value, String where)
        {
            if (value < 0 || value > Integer.MAX_VALUE) {
                throw new TopologyException("expected integers from 0 to " + Integer.MAX_VALUE + " in " + where + " of " + file + " but found " + value);
            }
            return (int) value;
        }

        private int nodeIdOfGpIndex(long gpIndex)
        {
            for (Element node : numaElements) {
                if (node.hasAttribute("gp_index") && longAttribute(node, "gp_index") == gpIndex) {
                    return osIndex(node);
                }
            }
            throw new TopologyException("expected a NUMANode with gp_index " + gpIndex + " in " + file + " (named by <distances2>) but found none");
        }

        /**
         * hwloc 1.x: {@code <latency value>} children, relative to {@code latency_base}, between the NUMA nodes in
         * their logical (document) order.
         */
        private Map<Integer, Map<Integer, Integer>> legacyDistances(Element element)
        {
            int count = intAttribute(element, "nbobjs");
            List<Element> latencies = childElements(element, "latency");
            if (count != numaElements.size() || latencies.size() != count * count) {
                unknowns.add("NUMA distances: the hwloc 1.x <distances> of " + file + " do not cover the " + numaElements.size() + " NUMA nodes; ignored");
                return Map.of();
            }
            double base = element.hasAttribute("latency_base") ? doubleAttribute(element, "latency_base") : 1;
            Map<Integer, Map<Integer, Integer>> matrix = new TreeMap<>();
            for (int from = 0; from < count; from++) {
                Map<Integer, Integer> row = matrix.computeIfAbsent(osIndex(numaElements.get(from)), key -> new TreeMap<>());
                for (int to = 0; to < count; to++) {
                    double latency = doubleAttribute(latencies.get(from * count + to), "value");
                    row.put(osIndex(numaElements.get(to)), (int) Math.round(latency * base));
                }
            }
            return matrix;
        }

        /**
         * hwloc lists cpukinds by increasing efficiency (its word for intrinsic performance), so the last is the
         * most performant; rank 0 here is the most performant. One kind, or none, means all cores are alike.
         */
        private List<CoreKind> coreKinds()
        {
            List<Element> elements = new ArrayList<>(childElements(topologyElement, "cpukind"));
            if (elements.isEmpty()) {
                unknowns.add("kinds of core: " + file + " has no <cpukind> (hwloc before 2.4, or a non-Linux backend); cores are taken as alike");
                return List.of();
            }
            if (elements.size() == 1) {
                return List.of();
            }
            if (elements.stream().allMatch(element -> element.hasAttribute("forced_efficiency"))) {
                elements.sort(Comparator.comparingInt(element -> intAttribute(element, "forced_efficiency")));
            }
            List<CoreKind> kinds = new ArrayList<>();
            for (int i = elements.size() - 1; i >= 0; i--) {
                int rank = elements.size() - 1 - i;
                kinds.add(new CoreKind(kindName(rank, elements.size()), rank, cpus(elements.get(i))));
            }
            return List.copyOf(kinds);
        }

        private static String kindName(int rank, int count)
        {
            if (count == 2) {
                return rank == 0 ? CoreKind.PERFORMANCE : CoreKind.EFFICIENCY;
            }
            return "kind-" + rank;
        }

        private static Optional<String> kindOf(Core core, List<CoreKind> kinds)
        {
            return kinds.stream()
                    .filter(kind -> kind.cpus().contains(core.firstCpu()))
                    .map(CoreKind::name)
                    .findFirst();
        }

        private List<Long> numbers(Element parent, String childName)
        {
            List<Long> numbers = new ArrayList<>();
            for (Element child : childElements(parent, childName)) {
                for (String token : WHITESPACE.split(child.getTextContent().strip())) {
                    if (token.isEmpty()) {
                        continue;
                    }
                    try {
                        numbers.add(Long.parseLong(token));
                    }
                    catch (NumberFormatException e) {
                        throw new TopologyException("expected whitespace-separated integers in <" + childName + "> of " + file + " but found " + FileText.quote(token), e);
                    }
                }
            }
            return numbers;
        }

        private CpuSet cpus(Element element)
        {
            if (!element.hasAttribute("cpuset")) {
                throw invalid(element, "cpuset", "an hwloc bitmap");
            }
            return bitmap(element, "cpuset").within(online);
        }

        private HwlocBitmap bitmap(Element element, String attribute)
        {
            try {
                return HwlocBitmap.parse(element.getAttribute(attribute));
            }
            catch (IllegalArgumentException e) {
                throw new TopologyException(describe(element) + " attribute " + attribute + " in " + file + ": " + e.getMessage(), e);
            }
        }

        private int osIndex(Element element)
        {
            int index = intAttribute(element, "os_index");
            if (index < 0) {
                throw invalid(element, "os_index", "a non-negative index");
            }
            return index;
        }

        private int intAttribute(Element element, String attribute)
        {
            long value = longAttribute(element, attribute);
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw invalid(element, attribute, "an integer of at most " + Integer.MAX_VALUE);
            }
            return (int) value;
        }

        private long longAttribute(Element element, String attribute)
        {
            try {
                return Long.parseLong(element.getAttribute(attribute).strip());
            }
            catch (NumberFormatException e) {
                throw invalid(element, attribute, "an integer");
            }
        }

        private double doubleAttribute(Element element, String attribute)
        {
            try {
                return Double.parseDouble(element.getAttribute(attribute).strip());
            }
            catch (NumberFormatException e) {
                throw invalid(element, attribute, "a number");
            }
        }

        private TopologyException invalid(Element element, String attribute, String expected)
        {
            String found = element.hasAttribute(attribute) ? FileText.quote(element.getAttribute(attribute)) : "nothing";
            return new TopologyException("expected " + expected + " as attribute " + attribute + " of " + describe(element) + " in " + file + " but found " + found);
        }
    }

    private static final class ThrowingErrorHandler
            implements ErrorHandler
    {
        @Override
        public void warning(SAXParseException exception) {}

        @Override
        public void error(SAXParseException exception)
                throws SAXParseException
        {
            throw exception;
        }

        @Override
        public void fatalError(SAXParseException exception)
                throws SAXParseException
        {
            throw exception;
        }
    }

    private static String attributeOr(Element element, String attribute, String fallback)
    {
        return element.hasAttribute(attribute) ? attribute : fallback;
    }

    private static String describe(Element element)
    {
        String type = element.getAttribute("type");
        return "<" + element.getTagName() + (type.isEmpty() ? "" : " type=" + FileText.quote(type))
                + (element.hasAttribute("os_index") ? " os_index=" + FileText.quote(element.getAttribute("os_index")) : "") + ">";
    }

    private static List<Element> childElements(Element parent, String name)
    {
        List<Element> children = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getTagName().equals(name)) {
                children.add(element);
            }
        }
        return children;
    }
}
