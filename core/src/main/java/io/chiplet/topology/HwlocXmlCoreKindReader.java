package io.chiplet.topology;

import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static io.chiplet.topology.HwlocXmlElements.children;

/**
 * The kinds of core of an hwloc XML file ({@code <cpukind>}, hwloc 2.4+). hwloc lists cpukinds by increasing
 * efficiency (its word for intrinsic performance), so the last is the most performant; rank 0 here is the most
 * performant. One kind, or none, means all cores are alike.
 */
final class HwlocXmlCoreKindReader
{
    private HwlocXmlCoreKindReader() {}

    /** @param unknowns where a file without {@code <cpukind>} is written down */
    static List<CoreKind> coreKinds(Element topologyElement, HwlocXmlElements elements, HwlocXmlCpus cpus, List<String> unknowns)
    {
        List<Element> kindElements = new ArrayList<>(children(topologyElement, "cpukind"));
        if (kindElements.isEmpty()) {
            unknowns.add("kinds of core: " + elements.file() + " has no <cpukind> (hwloc before 2.4, or a non-Linux backend); cores are taken as alike");
            return List.of();
        }
        if (kindElements.size() == 1) {
            return List.of();
        }
        if (kindElements.stream().allMatch(element -> element.hasAttribute("forced_efficiency"))) {
            kindElements.sort(Comparator.comparingInt(element -> elements.intAttribute(element, "forced_efficiency")));
        }
        List<CoreKind> kinds = new ArrayList<>();
        for (int i = kindElements.size() - 1; i >= 0; i--) {
            int rank = kindElements.size() - 1 - i;
            kinds.add(new CoreKind(kindName(rank, kindElements.size()), rank, cpus.of(kindElements.get(i))));
        }
        return List.copyOf(kinds);
    }

    /** The name of the kind {@code core} (its first CPU) belongs to, if any. */
    static Optional<String> kindOf(Core core, List<CoreKind> kinds)
    {
        return kinds.stream()
                .filter(kind -> kind.cpus().contains(core.firstCpu()))
                .map(CoreKind::name)
                .findFirst();
    }

    private static String kindName(int rank, int count)
    {
        if (count == 2) {
            return rank == 0 ? CoreKind.PERFORMANCE : CoreKind.EFFICIENCY;
        }
        return "kind-" + rank;
    }
}
