package io.chiplet.topology;

import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.chiplet.topology.HwlocXmlElements.children;

/**
 * One walk over the object tree of an hwloc XML file, from the machine's object down: the packages, dies, clusters,
 * caches and cores it holds (with the package each sits in), and the NUMA node objects for {@link HwlocXmlNumaReader}.
 * Objects without online CPUs are left out.
 */
final class HwlocXmlObjects
{
    private final HwlocXmlElements elements;
    private final HwlocXmlCpus cpus;
    private final HwlocXmlCacheReader cacheReader;

    private final List<CpuPackage> packages = new ArrayList<>();
    private final List<Die> dies = new ArrayList<>();
    private final List<Cluster> clusters = new ArrayList<>();
    private final List<Element> numaElements = new ArrayList<>();
    private final List<Cache> caches = new ArrayList<>();
    private final List<Core> cores = new ArrayList<>();
    private final Map<Integer, Integer> clustersPerPackage = new HashMap<>();
    private int pusWithoutCore;

    private HwlocXmlObjects(HwlocXmlElements elements, HwlocXmlCpus cpus)
    {
        this.elements = elements;
        this.cpus = cpus;
        this.cacheReader = new HwlocXmlCacheReader(elements, cpus);
    }

    /** Walks the tree below (and including) the machine's object {@code root}. */
    static HwlocXmlObjects walk(Element root, HwlocXmlElements elements, HwlocXmlCpus cpus)
    {
        HwlocXmlObjects objects = new HwlocXmlObjects(elements, cpus);
        objects.visit(root, -1);
        return objects;
    }

    List<CpuPackage> packages()
    {
        return List.copyOf(packages);
    }

    List<Die> dies()
    {
        return List.copyOf(dies);
    }

    List<Cluster> clusters()
    {
        return List.copyOf(clusters);
    }

    /** The {@code NUMANode} objects, in document (hwloc's logical) order. */
    List<Element> numaElements()
    {
        return List.copyOf(numaElements);
    }

    List<Cache> caches()
    {
        return List.copyOf(caches);
    }

    /** The cores, without their kind; a PU outside any Core object counts as a core of its own. */
    List<Core> cores()
    {
        return List.copyOf(cores);
    }

    /** How many PUs sit outside any Core object. */
    int pusWithoutCore()
    {
        return pusWithoutCore;
    }

    private void visit(Element object, int enclosingPackage)
    {
        int packageId = enclosingPackage;
        String type = object.getAttribute("type");
        switch (type) {
            // "Socket" is hwloc 1.x's name for a package
            case "Package", "Socket" -> {
                // hwloc writes no os_index for a package the kernel gave no physical_package_id (-1)
                packageId = object.hasAttribute("os_index") ? elements.osIndex(object) : -1;
                CpuSet packageCpus = cpus.of(object);
                if (!packageCpus.isEmpty()) {
                    packages.add(new CpuPackage(packageId, packageCpus));
                }
            }
            case "Die" -> {
                CpuSet dieCpus = cpus.of(object);
                if (!dieCpus.isEmpty()) {
                    dies.add(new Die(packageId, elements.osIndex(object), dieCpus));
                }
            }
            case "Group" -> {
                CpuSet groupCpus = cpus.of(object);
                // hwloc's Linux backend makes a Group of subtype Cluster from topology/cluster_cpus
                if (object.getAttribute("subtype").equalsIgnoreCase("Cluster") && !groupCpus.isEmpty()) {
                    int ordinal = clustersPerPackage.merge(packageId, 1, Integer::sum) - 1;
                    int id = object.hasAttribute("os_index") ? elements.osIndex(object) : ordinal;
                    clusters.add(new Cluster(packageId, id, groupCpus));
                }
            }
            case "NUMANode" -> numaElements.add(object);
            case "Core" -> {
                CpuSet coreCpus = cpus.of(object);
                if (!coreCpus.isEmpty()) {
                    cores.add(new Core(packageId, elements.osIndex(object), coreCpus, Optional.empty()));
                }
                // a core's PUs are accounted for by the core; do not count them as core-less below
                return;
            }
            case "PU" -> {
                CpuSet puCpus = cpus.of(object);
                if (!puCpus.isEmpty()) {
                    pusWithoutCore++;
                    cores.add(new Core(packageId, elements.osIndex(object), puCpus, Optional.empty()));
                }
            }
            default -> cacheReader.cache(object, type).ifPresent(caches::add);
        }
        for (Element child : children(object, "object")) {
            visit(child, packageId);
        }
    }
}
