package io.chiplet.topology;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The facts hwloc found in one machine, taken from {@code lstopo --of xml} output with plain DOM parsing. Test code
 * only, deliberately independent of any production XML reader, so that it can judge them.
 *
 * @param online the Machine object's cpuset
 * @param complete the Machine's complete_cpuset (present CPUs, offline ones included)
 * @param allowed the Machine's allowed_cpuset
 * @param allowedNodes the Machine's allowed_nodeset: the NUMA nodes the lstopo process could allocate from
 * @param packages packages in the order {@code SysfsTopologyReader} lists them (by os_index, those without one last,
 *         then by first CPU), each as its os_index (-1 where hwloc writes none: the kernel gave no physical_package_id)
 *         and CPUs; os_indexes may repeat where the kernel numbers packages alike
 * @param numaNodes NUMA node os_index to its CPUs
 * @param numaMemory NUMA node os_index to its local memory in bytes
 * @param numaSubtypes NUMA node os_index to hwloc's subtype of its memory ({@code GPUMemory}; hwloc 2.9's Linux
 *         backend names no other), for the nodes that have one
 * @param l3s L3 caches, by first CPU
 * @param cores cores' CPU sets, by first CPU
 * @param kinds kinds of core, most performant first (the XML lists them least performant first)
 */
record HwlocFacts(
        CpuSet online,
        CpuSet complete,
        CpuSet allowed,
        CpuSet allowedNodes,
        List<CpuPackage> packages,
        Map<Integer, CpuSet> numaNodes,
        Map<Integer, Long> numaMemory,
        Map<Integer, String> numaSubtypes,
        List<L3> l3s,
        List<CpuSet> cores,
        List<CpuSet> kinds)
{
    record L3(CpuSet cpus, long sizeBytes) {}

    static HwlocFacts parse(Path xml)
    {
        try (InputStream in = Files.newInputStream(xml)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            // the DOCTYPE names hwloc2.dtd, which is not here: do not try to load it
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            DocumentBuilder builder = factory.newDocumentBuilder();
            Document document = builder.parse(in);

            CpuSet online = null;
            CpuSet complete = null;
            CpuSet allowed = null;
            CpuSet allowedNodes = null;
            List<CpuPackage> packages = new ArrayList<>();
            Map<Integer, CpuSet> nodes = new TreeMap<>();
            Map<Integer, Long> memory = new TreeMap<>();
            Map<Integer, String> subtypes = new TreeMap<>();
            List<L3> l3s = new ArrayList<>();
            List<CpuSet> cores = new ArrayList<>();
            NodeList objects = document.getElementsByTagName("object");
            for (int i = 0; i < objects.getLength(); i++) {
                Element object = (Element) objects.item(i);
                CpuSet cpus = bitmap(object.getAttribute("cpuset"));
                switch (object.getAttribute("type")) {
                    case "Machine" -> {
                        online = cpus;
                        complete = bitmap(object.getAttribute("complete_cpuset"));
                        allowed = bitmap(object.getAttribute("allowed_cpuset"));
                        allowedNodes = bitmap(object.getAttribute("allowed_nodeset"));
                    }
                    case "Package" -> packages.add(new CpuPackage(object.hasAttribute("os_index") ? Integer.parseInt(object.getAttribute("os_index")) : -1, cpus));
                    case "NUMANode" -> {
                        int id = Integer.parseInt(object.getAttribute("os_index"));
                        nodes.put(id, cpus);
                        if (object.hasAttribute("subtype")) {
                            subtypes.put(id, object.getAttribute("subtype"));
                        }
                        if (object.hasAttribute("local_memory")) {
                            memory.put(id, Long.parseLong(object.getAttribute("local_memory")));
                        }
                    }
                    case "L3Cache" -> l3s.add(new L3(cpus, Long.parseLong(object.getAttribute("cache_size"))));
                    case "Core" -> cores.add(cpus);
                    default -> {}
                }
            }
            l3s.sort(Comparator.comparingInt(l3 -> l3.cpus().first()));
            packages.sort(Comparator.comparingInt((CpuPackage found) -> found.id() < 0 ? Integer.MAX_VALUE : found.id()).thenComparingInt(found -> found.cpus().first()));
            cores.sort(Comparator.comparingInt(CpuSet::first));

            // hwloc numbers cpukinds by increasing efficiency ranking: the most performant kind comes last
            List<CpuSet> kinds = new ArrayList<>();
            NodeList kindElements = document.getElementsByTagName("cpukind");
            for (int i = kindElements.getLength() - 1; i >= 0; i--) {
                kinds.add(bitmap(((Element) kindElements.item(i)).getAttribute("cpuset")));
            }
            if (online == null) {
                throw new IllegalArgumentException(xml + " has no Machine object");
            }
            return new HwlocFacts(online, complete, allowed, allowedNodes, List.copyOf(packages), nodes, memory, subtypes, List.copyOf(l3s), List.copyOf(cores), List.copyOf(kinds));
        }
        catch (Exception e) {
            throw new IllegalStateException("cannot read hwloc XML " + xml, e);
        }
    }

    /** hwloc bitmaps: 32-bit words {@code 0x%08x}, most significant first, separated by commas ({@code 0x0000ffff,0xffffffff}). */
    static CpuSet bitmap(String text)
    {
        if (text.isEmpty()) {
            return CpuSet.empty();
        }
        String[] words = text.split(",", -1);
        BitSet bits = new BitSet();
        for (int i = 0; i < words.length; i++) {
            String word = words[i].strip();
            if (word.startsWith("0x")) {
                word = word.substring(2);
            }
            long value = word.isEmpty() ? 0 : Long.parseLong(word, 16);
            int base = (words.length - 1 - i) * 32;
            for (int bit = 0; bit < 32; bit++) {
                if ((value >>> bit & 1) != 0) {
                    bits.set(base + bit);
                }
            }
        }
        return CpuSet.fromBitSet(bits);
    }
}
