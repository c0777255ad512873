package io.chiplet.spark.placement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chiplet.cli.AdviseRun;
import io.chiplet.cli.PlanCommand;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.NodeShare;
import io.chiplet.placement.Policy;
import io.chiplet.spark.settings.ChipletSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue #24's "plan prints what runs", for Spark's task mode: on every bundled machine (core's hwloc XMLs and sysfs
 * snapshots), for every policy and several slot counts, the task slots the plugin binds (its placement run with a
 * recording binder, one task per slot) are exactly the workers {@code chiplet plan --format json} prints for the same
 * machine, policy and worker count: each slot's CPUs (none under {@code wim}), chiplet and memory node.
 */
class SlotsMatchChipletPlanTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Machine> MACHINES = new ArrayList<>();
    private static Path unpacked;

    private record Machine(String name, List<String> source, Topology topology) {}

    private record Worker(Optional<CpuSet> cpus, OptionalInt chiplet, OptionalInt memoryNode) {}

    @BeforeAll
    static void loadMachines()
            throws IOException
    {
        for (String xml : resources("/hwloc-xml", ".xml")) {
            Path file = AdviseRun.fixture("/hwloc-xml/" + xml);
            MACHINES.add(new Machine(xml, List.of("--hwloc-xml", file.toString()), TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(file))));
        }
        unpacked = Files.createTempDirectory("spark-slots-match-plan");
        for (String tarball : resources("/snapshots", ".tar.bz2")) {
            String name = tarball.replace(".tar.bz2", "");
            Path root = Snapshots.unpack(name, unpacked);
            MACHINES.add(new Machine(name, List.of("--fs-root", root.toString()), TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root))));
        }
    }

    @AfterAll
    static void removeSnapshots()
            throws IOException
    {
        if (unpacked != null) {
            try (Stream<Path> paths = Files.walk(unpacked)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void theBundledMachinesAreAllHere()
    {
        // 7 hwloc XMLs and the snapshots: a fixture lost from core's test jar must not shrink this test silently.
        assertThat(MACHINES.stream().filter(machine -> machine.source().get(0).equals("--hwloc-xml"))).hasSizeGreaterThanOrEqualTo(7);
        assertThat(MACHINES.stream().filter(machine -> machine.source().get(0).equals("--fs-root"))).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void everySlotBindsWhatChipletPlanPrints()
    {
        int compared = 0;
        for (Machine machine : MACHINES) {
            if (machine.topology().allowed().isEmpty()) {
                continue;
            }
            int chiplets = Math.max(1, NodeShare.of(machine.topology()).chiplets().size());
            Set<Integer> slotCounts = new TreeSet<>(List.of(1, 3, chiplets, chiplets + 1, machine.topology().allowed().size()));
            for (Policy policy : Policy.values()) {
                for (int slots : slotCounts) {
                    String what = machine.name() + ", " + policy.cliName() + ", " + slots + " slots";
                    assertThat(sparkSlots(machine.topology(), policy, slots)).as(what).isEqualTo(plan(machine, policy, slots));
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(500);
    }

    /** What the task placement binds in each slot: one task started per slot, none ended, through a recording binder. */
    private static List<Worker> sparkSlots(Topology topology, Policy policy, int slots)
    {
        ChipletSettings settings = ((ChipletSettings.Valid) ChipletSettings.parse(Map.of(ChipletSettings.POLICY, policy.cliName()))).settings();
        FakeTaskThreadBinder binder = new FakeTaskThreadBinder(topology.allowed());
        BoundTaskPlacement placement = BoundTaskPlacement.following(BoundTaskPlacement.targets(topology, settings, slots),
                topology.chiplets().stream().map(Chiplet::id).toList(), binder);
        Worker[] bySlot = new Worker[slots];
        for (int task = 0; task < slots; task++) {
            int before = binder.bound().size();
            BoundTaskPlacement.Placed placed = (BoundTaskPlacement.Placed) placement.onTaskStart(new TaskPlacement.TaskIdentity(1, task, task));
            assertThat(bySlot[placed.slot()]).as("slot %d taken twice", placed.slot()).isNull();
            if (binder.bound().size() == before) {
                // Nothing bound: the slot's memory stays alone too.
                assertThat(placed.cpus()).isEmpty();
                bySlot[placed.slot()] = new Worker(Optional.empty(), placed.chiplet(), OptionalInt.empty());
            }
            else {
                FakeTaskThreadBinder.Bound bound = binder.bound().getLast();
                bySlot[placed.slot()] = new Worker(Optional.of(bound.cpus()), placed.chiplet(), bound.memoryNode());
            }
        }
        return List.of(bySlot);
    }

    /** {@code chiplet plan --format json} for the machine, run in-process as a user runs it. */
    private static List<Worker> plan(Machine machine, Policy policy, int workers)
    {
        List<String> args = new ArrayList<>(machine.source());
        args.addAll(List.of("--policy", policy.cliName(), "--workers", Integer.toString(workers), "--format", "json"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new PlanCommand());
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int status = command.execute(args.toArray(String[]::new));
        assertThat(status).as("chiplet plan %s: %s", args, err).isZero();
        try {
            List<Worker> printed = new ArrayList<>();
            for (JsonNode worker : JSON.readTree(out.toString()).get("workers")) {
                printed.add(new Worker(
                        worker.has("cpus") ? Optional.of(CpuSet.parseList(worker.get("cpus").asText())) : Optional.empty(),
                        worker.has("chiplet") ? OptionalInt.of(worker.get("chiplet").asInt()) : OptionalInt.empty(),
                        worker.has("memoryNode") ? OptionalInt.of(worker.get("memoryNode").asInt()) : OptionalInt.empty()));
            }
            return printed;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files in a test resource folder, over every class path entry that has it (core's test jar, this module's). */
    private static List<String> resources(String folder, String suffix)
            throws IOException
    {
        Set<String> names = new TreeSet<>();
        for (URL url : java.util.Collections.list(Snapshots.class.getClassLoader().getResources(folder.substring(1)))) {
            URI uri;
            try {
                uri = url.toURI();
            }
            catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
            if (uri.getScheme().equals("jar")) {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of()); Stream<Path> files = Files.list(jar.getPath(folder))) {
                    names.addAll(names(files, suffix));
                }
            }
            else {
                try (Stream<Path> files = Files.list(Path.of(uri))) {
                    names.addAll(names(files, suffix));
                }
            }
        }
        return List.copyOf(names);
    }

    private static List<String> names(Stream<Path> files, String suffix)
    {
        return files.map(path -> path.getFileName().toString().replace("/", "")).filter(name -> name.endsWith(suffix)).sorted().toList();
    }
}
