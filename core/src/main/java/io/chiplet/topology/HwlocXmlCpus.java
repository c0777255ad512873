package io.chiplet.topology;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.util.BitSet;

import static io.chiplet.topology.HwlocXmlElements.attributeOr;
import static io.chiplet.topology.HwlocXmlElements.describe;
import static java.util.Objects.requireNonNull;

/**
 * The CPUs of the machine an hwloc XML file describes, as hwloc recorded them there: present (online and offline),
 * online (the root object's {@code cpuset}) and allowed (its {@code allowed_cpuset}, the cgroup of that lstopo
 * process); and the online CPUs of any object of the file.
 */
final class HwlocXmlCpus
{
    private final HwlocXmlElements elements;
    private final CpuSet present;
    private final CpuSet online;
    private final CpuSet allowed;

    private HwlocXmlCpus(HwlocXmlElements elements, CpuSet present, CpuSet online, CpuSet allowed)
    {
        this.elements = requireNonNull(elements, "elements is null");
        this.present = requireNonNull(present, "present is null");
        this.online = requireNonNull(online, "online is null");
        this.allowed = requireNonNull(allowed, "allowed is null");
    }

    /**
     * @param root the machine's object (the first {@code <object>} inside {@code <topology>})
     * @throws TopologyException when a CPU number is out of range or the machine has no online CPU
     */
    static HwlocXmlCpus read(Document document, Element root, HwlocXmlElements elements)
    {
        // offline CPUs have no PU object; the root's complete_cpuset still names them
        BitSet universe = elements.bitmap(root, attributeOr(root, "complete_cpuset", "cpuset")).finitePart().toBitSet();
        var all = document.getElementsByTagName("object");
        for (int i = 0; i < all.getLength(); i++) {
            Element object = (Element) all.item(i);
            if (object.getAttribute("type").equals("PU")) {
                int cpu = elements.osIndex(object);
                if (cpu >= CpuSet.MAX_CPUS) {
                    throw elements.invalid(object, "os_index", "a CPU number below " + CpuSet.MAX_CPUS);
                }
                universe.set(cpu);
            }
        }
        CpuSet present = CpuSet.fromBitSet(universe);
        CpuSet rootCpus = elements.bitmap(root, "cpuset").within(present);
        // hwloc 1.x kept offline CPUs in cpuset and listed the online ones separately
        CpuSet online = root.hasAttribute("online_cpuset") ? rootCpus.intersect(elements.bitmap(root, "online_cpuset").within(present)) : rootCpus;
        CpuSet allowed = root.hasAttribute("allowed_cpuset") ? elements.bitmap(root, "allowed_cpuset").within(present).intersect(online) : online;
        if (online.isEmpty()) {
            throw new TopologyException("expected at least one CPU in the cpuset of " + describe(root) + " in " + elements.file() + " but found "
                    + (root.hasAttribute("cpuset") ? FileText.quote(root.getAttribute("cpuset")) : "no cpuset"));
        }
        return new HwlocXmlCpus(elements, present, online, allowed);
    }

    CpuSet present()
    {
        return present;
    }

    CpuSet online()
    {
        return online;
    }

    CpuSet allowed()
    {
        return allowed;
    }

    /** The online CPUs of an object (its required {@code cpuset}). */
    CpuSet of(Element element)
    {
        if (!element.hasAttribute("cpuset")) {
            throw elements.invalid(element, "cpuset", "an hwloc bitmap");
        }
        return elements.bitmap(element, "cpuset").within(online);
    }
}
