package io.chiplet.spark.demo;

import io.chiplet.advice.Advice;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.placement.HybridRouting;
import io.chiplet.placement.PartitionSizing;
import io.chiplet.placement.Plan;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.placement.BoundTaskPlacement;
import io.chiplet.slots.SlotTable;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What the plugin would do on the machines the demo carries: their chiplets, where each task slot of an executor
 * holding the whole machine would be pinned, and the settings the driver would apply, each computed by the code the
 * plugin runs (core's planner, the executor's slot table, the driver's partition advice), not by a copy. Then what
 * published studies measured on that class of machine, marked as theirs.
 */
final class MachineShowcase
{
    private final PrintStream out;
    private final PlacementSettings settings;

    MachineShowcase(PrintStream out, PlacementSettings settings)
    {
        this.out = requireNonNull(out, "out is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    void show(BundledMachine machine)
    {
        Topology topology = read(machine.resource());
        out.println();
        out.println("== " + machine.title());
        out.printf(Locale.ROOT, "Bundled reading: %s (hwloc's lstopo XML of a real machine; read as `bin/chiplet topology --hwloc-xml FILE` reads one)%n",
                machine.resource());
        printChiplets(topology);
        printSlots(topology);
        printDriverSettings(topology);
        out.println("What the papers measured on this class of machine (their figures, not measured by this project or this demo):");
        for (BundledMachine.StudyFigure figure : machine.studies()) {
            out.println("  - " + figure.finding());
            out.println("    [" + figure.paper().citation() + "]");
        }
    }

    private void printChiplets(Topology topology)
    {
        out.printf(Locale.ROOT, "Chiplets: %d on %s, %s, %d CPUs%n", topology.chiplets().size(),
                count(topology.packages().size(), "package"), count(topology.numaNodes().size(), "NUMA node"), topology.allowed().size());
        for (Chiplet chiplet : topology.chiplets()) {
            out.printf(Locale.ROOT, "  chiplet %2d: package %d, NUMA node %d, L3 %s, CPUs %s%n", chiplet.id(), chiplet.packageId(), chiplet.numaNode(),
                    chiplet.l3Bytes() == 0 ? "unknown" : (chiplet.l3Bytes() >> 20) + " MiB", chiplet.cpus().toList());
        }
        if (topology.isHybrid()) {
            for (CoreKind kind : topology.coreKinds()) {
                out.printf(Locale.ROOT, "  %s cores: CPUs %s%n", kind.name(), kind.cpus().toList());
            }
        }
    }

    private void printSlots(Topology topology)
    {
        int slots = topology.allowed().size();
        WorkerPlacements targets = BoundTaskPlacement.targets(topology, settings, slots);
        Plan plan = targets.plan();
        SlotTable table = SlotTable.of(targets);
        out.printf(Locale.ROOT, "Task slots of one executor holding the whole machine (%d slots, as local[*] or spark.executor.cores=%d), "
                + "policy %s -> %s: %s%n", slots, slots, settings.policy(), plan.policy(), plan.reason());
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int slot = 0; slot < table.size(); slot++) {
            groups.computeIfAbsent(where(table.slot(slot)), key -> new ArrayList<>()).add(slot);
        }
        groups.forEach((where, members) -> out.printf(Locale.ROOT, "  %s %s%n", slotList(members), where));
        // The executor routes by kind of work on hybrid parts (BoundTaskPlacement.live): the same core decision.
        HybridRouting routing = HybridRouting.of(topology, topology.allowed());
        if (routing.isHybrid()) {
            out.printf(Locale.ROOT, "  within its slot, a task of a stage that reads shuffles or computes runs on the performance cores (CPUs %s), "
                    + "a scan on the efficiency cores (CPUs %s), each on the other kind when its own is full%n",
                    routing.cpus(HybridRouting.CoreClass.PERFORMANCE).toList(), routing.cpus(HybridRouting.CoreClass.EFFICIENCY).toList());
        }
    }

    private static String where(SlotTable.Slot slot)
    {
        if (!slot.binds()) {
            return "not bound (the OS places them)" + memory(slot.memoryNode());
        }
        return String.format(Locale.ROOT, "pinned to CPUs %s%s%s", slot.cpus().get().toList(),
                slot.chiplet().isPresent() ? " (chiplet " + slot.chiplet().getAsInt() + ")" : "",
                memory(slot.memoryNode()));
    }

    private static String memory(OptionalInt node)
    {
        return node.isPresent() ? ", memory preferred on NUMA node " + node.getAsInt() : ", memory left to the OS";
    }

    /** Slot numbers, shortened where they are many: "16 slots (0, 16, 32, ..., 240)". */
    static String slotList(List<Integer> slots)
    {
        if (slots.size() == 1) {
            return "slot " + slots.get(0);
        }
        String ranges = CpuSet.of(slots.stream().mapToInt(Integer::intValue).toArray()).toList();
        if (ranges.length() <= 16) {
            return "slots " + ranges;
        }
        return String.format(Locale.ROOT, "%d slots (%d, %d, %d, ..., %d)", slots.size(), slots.get(0), slots.get(1), slots.get(2), slots.get(slots.size() - 1));
    }

    private void printDriverSettings(Topology topology)
    {
        out.println("Settings the driver would apply (unless the user set them):");
        for (AdvisedSetting setting : driverSettings(topology)) {
            out.printf(Locale.ROOT, "  %s=%s  (%s)%n", setting.key(), setting.value(), setting.reason());
        }
    }

    /** What the driver applies for an executor on {@code topology}: core's sizing, as {@code chiplet advise} prints it. */
    static List<AdvisedSetting> driverSettings(Topology topology)
    {
        return SparkPartitionSettings.of(PartitionSizing.of(topology, topology.allowed(), OptionalLong.empty()));
    }

    /** The bundled XML, through a file: hwloc XML is read from a path, as the CLI's {@code --hwloc-xml} reads it. */
    private static Topology read(String resource)
    {
        String path = "machines/" + resource;
        try (InputStream in = MachineShowcase.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the demo's bundled machine " + path + " is missing from the class path");
            }
            Path directory = Files.createTempDirectory("chiplet-demo-");
            Path file = directory.resolve(resource);
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                return TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(file));
            }
            finally {
                Files.deleteIfExists(file);
                Files.deleteIfExists(directory);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot unpack the demo's bundled machine " + path, e);
        }
    }

    private static String count(int count, String thing)
    {
        return count + " " + thing + (count == 1 ? "" : "s");
    }
}
