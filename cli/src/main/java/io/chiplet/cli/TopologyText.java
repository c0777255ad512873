package io.chiplet.cli;

import io.chiplet.report.ByteSize;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Core;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The chiplet-centric text map of {@code chiplet topology}: package, then NUMA node, then one line per chiplet
 * with its L3, its cores and its CPUs as a cpulist. One line per chiplet (never per core or CPU) keeps a
 * 2-socket, 256-CPU machine on one screen.
 */
public final class TopologyText
{
    private TopologyText() {}

    public static String render(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        StringBuilder out = new StringBuilder();
        header(topology, out);

        // Chiplets never cross a package or NUMA node, so grouping them by the two ids gives the hierarchy.
        Map<Integer, Map<Integer, List<Chiplet>>> tree = new TreeMap<>();
        for (Chiplet chiplet : topology.chiplets()) {
            tree.computeIfAbsent(chiplet.packageId(), key -> new TreeMap<>())
                    .computeIfAbsent(chiplet.numaNode(), key -> new ArrayList<>())
                    .add(chiplet);
        }
        Columns columns = Columns.of(topology);
        for (Map.Entry<Integer, Map<Integer, List<Chiplet>>> pkg : tree.entrySet()) {
            CpuSet packageCpus = packageCpus(topology, pkg.getKey(), pkg.getValue());
            out.append('\n');
            out.append(pkg.getKey() < 0 ? "no package" : "package " + pkg.getKey())
                    .append("  CPUs ").append(cpus(packageCpus))
                    .append(allowedNote(topology, packageCpus))
                    .append('\n');
            for (Map.Entry<Integer, List<Chiplet>> node : pkg.getValue().entrySet()) {
                CpuSet nodeCpus = node.getValue().stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
                out.append("  ").append(nodeName(node.getKey()))
                        .append("  CPUs ").append(cpus(nodeCpus));
                topology.numaNode(node.getKey()).ifPresent(numaNode -> out.append(memoryAndDistances(numaNode)));
                out.append(allowedNote(topology, nodeCpus)).append('\n');
                for (Chiplet chiplet : node.getValue()) {
                    out.append("    ").append(chipletLine(topology, chiplet, columns)).append('\n');
                }
            }
        }

        List<NumaNode> memoryOnly = topology.numaNodes().stream().filter(node -> !node.hasCpus()).toList();
        if (!memoryOnly.isEmpty()) {
            out.append("\nmemory without CPUs\n");
            for (NumaNode node : memoryOnly) {
                out.append("  NUMA node ").append(node.id()).append(memoryAndDistances(node)).append('\n');
            }
        }
        if (!topology.unknowns().isEmpty()) {
            out.append('\n');
            for (String unknown : topology.unknowns()) {
                out.append("unknown: ").append(unknown).append('\n');
            }
        }
        return out.toString();
    }

    private static void header(Topology topology, StringBuilder out)
    {
        CpuSet online = topology.online();
        CpuSet allowed = topology.allowed().intersect(online);
        out.append(topology.source()).append("  ")
                .append(online.size()).append(online.size() == 1 ? " CPU" : " CPUs").append(" online ").append(cpus(online));
        if (!topology.offline().isEmpty()) {
            out.append(", offline ").append(cpus(topology.offline()));
        }
        if (allowed.equals(online)) {
            out.append(", all allowed");
        }
        else {
            out.append(", ").append(allowed.size()).append(" allowed ").append(allowed.isEmpty() ? "(none)" : cpus(allowed));
        }
        out.append('\n');

        Map<String, Long> bases = topology.chiplets().stream()
                .collect(Collectors.groupingBy(chiplet -> chiplet.basis().jsonName(), LinkedHashMap::new, Collectors.counting()));
        out.append(count(topology.packages().size(), "package")).append(", ")
                .append(count(topology.numaNodes().size(), "NUMA node")).append(", ")
                .append(count(topology.chiplets().size(), "chiplet"));
        if (!bases.isEmpty()) {
            out.append(" (by ").append(bases.keySet().stream().collect(Collectors.joining(", "))).append(')');
        }
        out.append(", ").append(count(topology.cores().size(), "core")).append(smtNote(topology.cores())).append('\n');

        if (topology.isHybrid()) {
            out.append("kinds of core: ").append(topology.coreKinds().stream()
                    .map(kind -> kind.name() + kind.model().map(model -> " (" + model + ")").orElse("") + " " + cpus(kind.cpus()))
                    .collect(Collectors.joining(", "))).append('\n');
        }
    }

    static String nodeName(int id)
    {
        return id < 0 ? "no NUMA node" : "NUMA node " + id;
    }

    private static String smtNote(List<Core> cores)
    {
        TreeSet<Integer> threads = cores.stream().map(core -> core.cpus().size()).collect(Collectors.toCollection(TreeSet::new));
        if (threads.isEmpty() || threads.last() == 1) {
            return "";
        }
        if (threads.size() == 1) {
            return ", " + threads.last() + " threads each";
        }
        long withSmt = cores.stream().filter(core -> core.cpus().size() > 1).count();
        return " (" + withSmt + " with " + threads.last() + " threads)";
    }

    private static CpuSet packageCpus(Topology topology, int packageId, Map<Integer, List<Chiplet>> nodes)
    {
        Optional<CpuPackage> cpuPackage = topology.packages().stream().filter(p -> p.id() == packageId).findFirst();
        if (cpuPackage.isPresent()) {
            return cpuPackage.get().cpus();
        }
        return nodes.values().stream().flatMap(List::stream).map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
    }

    private static String memoryAndDistances(NumaNode node)
    {
        StringBuilder out = new StringBuilder();
        out.append("  memory ").append(node.memoryBytes().isPresent() ? ByteSize.rounded(node.memoryBytes().getAsLong()) : "unknown");
        if (!node.distances().isEmpty()) {
            out.append("  distances ").append(node.distances().entrySet().stream()
                    .map(entry -> entry.getKey() + ":" + entry.getValue())
                    .collect(Collectors.joining(" ")));
        }
        return out.toString();
    }

    private static String chipletLine(Topology topology, Chiplet chiplet, Columns columns)
    {
        List<Core> cores = coresOf(topology, chiplet);
        StringBuilder line = new StringBuilder();
        line.append("chiplet ").append(pad(String.valueOf(chiplet.id()), columns.id, true))
                .append("  L3 ").append(pad(chiplet.l3Bytes() > 0 ? ByteSize.rounded(chiplet.l3Bytes()) : "?", columns.l3, false))
                .append("  ").append(pad(count(cores.size(), "core"), columns.cores, false));
        if (topology.isHybrid()) {
            line.append("  ").append(kindsOf(topology, cores));
        }
        line.append("  CPUs ").append(cpus(chiplet.cpus()));
        if (chiplet.basis() != topology.chiplets().get(0).basis()) {
            line.append("  (by ").append(chiplet.basis().jsonName()).append(')');
        }
        line.append(allowedNote(topology, chiplet.cpus()));
        return line.toString().stripTrailing();
    }

    private static List<Core> coresOf(Topology topology, Chiplet chiplet)
    {
        return topology.cores().stream().filter(core -> chiplet.cpus().contains(core.firstCpu())).toList();
    }

    /** "6 performance + 8 efficiency", in the kinds' rank order. */
    private static String kindsOf(Topology topology, List<Core> cores)
    {
        Map<String, Long> counts = cores.stream()
                .collect(Collectors.groupingBy(core -> core.kind().orElse("unknown kind"), Collectors.counting()));
        List<String> parts = new ArrayList<>();
        for (CoreKind kind : topology.coreKinds()) {
            Long n = counts.remove(kind.name());
            if (n != null) {
                parts.add(n + " " + kind.name());
            }
        }
        counts.forEach((name, n) -> parts.add(n + " " + name));
        return String.join(" + ", parts);
    }

    /** Marks CPUs the cgroup cpuset (or affinity mask) keeps this process off. */
    private static String allowedNote(Topology topology, CpuSet cpus)
    {
        CpuSet disallowed = cpus.minus(topology.allowed());
        if (disallowed.isEmpty()) {
            return "";
        }
        if (disallowed.equals(cpus)) {
            return "  [not allowed]";
        }
        return "  [not allowed: " + cpus(disallowed) + "]";
    }

    /**
     * A cpulist, except that a run of four or more CPUs a fixed step apart reads {@code 0,2,..,30}: machines
     * that number SMT siblings or packages alternately would otherwise print every CPU.
     */
    static String cpus(CpuSet set)
    {
        int[] cpus = set.toArray();
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < cpus.length) {
            if (!out.isEmpty()) {
                out.append(',');
            }
            int step = i + 1 < cpus.length ? cpus[i + 1] - cpus[i] : 0;
            int end = i;
            while (end + 1 < cpus.length && cpus[end + 1] - cpus[end] == step) {
                end++;
            }
            if (step == 1 && end > i) {
                out.append(cpus[i]).append('-').append(cpus[end]);
                i = end + 1;
            }
            else if (end - i + 1 >= 4) {
                out.append(cpus[i]).append(',').append(cpus[i + 1]).append(",..,").append(cpus[end]);
                i = end + 1;
            }
            else {
                out.append(cpus[i]);
                i++;
            }
        }
        return out.toString();
    }

    private static String count(long n, String noun)
    {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String pad(String text, int width, boolean right)
    {
        String spaces = " ".repeat(Math.max(0, width - text.length()));
        return right ? spaces + text : text + spaces;
    }

    /** Column widths shared by every chiplet line, so the lines align across packages and nodes. */
    private record Columns(int id, int l3, int cores)
    {
        static Columns of(Topology topology)
        {
            int id = 1;
            int l3 = 1;
            int cores = 1;
            for (Chiplet chiplet : topology.chiplets()) {
                id = Math.max(id, String.valueOf(chiplet.id()).length());
                l3 = Math.max(l3, chiplet.l3Bytes() > 0 ? ByteSize.rounded(chiplet.l3Bytes()).length() : 1);
                cores = Math.max(cores, count(coresOf(topology, chiplet).size(), "core").length());
            }
            return new Columns(id, l3, cores);
        }
    }
}
