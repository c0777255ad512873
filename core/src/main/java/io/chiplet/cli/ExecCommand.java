package io.chiplet.cli;

import io.chiplet.affinity.AllowedCpus;
import io.chiplet.affinity.ChipletLease;
import io.chiplet.affinity.ChipletLeases;
import io.chiplet.affinity.CpuNodes;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.placement.Assignment;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.PlacementRequest;
import io.chiplet.placement.Policy;
import io.chiplet.affinity.PinnedThread;
import io.chiplet.affinity.PinningBackend;
import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyDiscovery;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import static java.util.Objects.requireNonNull;

/**
 * {@code chiplet exec}: runs a command bound to CPUs or chiplets, as {@code taskset}/{@code numactl} do.
 *
 * <p>Affinity and memory policy are per thread and a new process copies them from the thread that creates it, and
 * keeps them across {@code execve}. The JDK starts a process on the thread that calls {@link ProcessBuilder#start()}
 * (posix_spawn of {@code jspawnhelper}, which then execs the command; or fork with
 * {@code -Djdk.lang.Process.launchMechanism=FORK}), so pinning that thread, and setting its policy, just around
 * {@code start()} binds the child. Tests check it for both launch mechanisms.
 */
@Command(
        name = "exec",
        mixinStandardHelpOptions = true,
        description = {
                "Runs a command bound to CPUs or chiplets (like taskset/numactl, chiplet-aware).",
                "Exits with the command's exit code; 2 for a usage error, 127 when the command cannot be started."
        })
public final class ExecCommand
        implements Callable<Integer>
{
    /** How exec learns the chiplets for {@code --chiplet} and {@code --policy}: the topology reader plugs in here. */
    @FunctionalInterface
    public interface TopologySource
    {
        /** The topology of this machine, or of the snapshot under {@code fsRoot}. */
        Topology read(Optional<Path> fsRoot);
    }

    static final class Target
    {
        @Option(names = "--cpus", paramLabel = "LIST", description = "CPUs as a cpulist, e.g. 0-3,8")
        String cpus;

        @Option(names = "--chiplet", paramLabel = "ID", split = ",", description = "chiplet ids, as `chiplet topology` numbers them")
        List<Integer> chiplets;

        @Option(names = "--policy", paramLabel = "POLICY",
                description = "wicp-local: one free chiplet, leased host-wide so concurrent runs spread out; wim: every allowed CPU; "
                        + "win, wicp-mixed, wic, auto, adaptive: where the planner puts one worker (win: a NUMA node, wic: one core)")
        String policy;
    }

    @ArgGroup(multiplicity = "1")
    Target target;

    @Option(names = "--membind", description = "also bind the command's memory to the NUMA nodes of its CPUs")
    boolean membind;

    @Option(names = "--fs-root", paramLabel = "DIR", description = "read the topology from a sysfs snapshot under DIR instead of /")
    Path fsRoot;

    @Option(names = "--backend", paramLabel = "ffm|openhft", defaultValue = "ffm", description = "pinning backend (default: ${DEFAULT-VALUE})")
    String backend;

    @Option(names = "--lease-dir", paramLabel = "DIR", description = "chiplet lease directory for --policy wicp-local (default: java.io.tmpdir/chiplet-leases)")
    Path leaseDirectory;

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "the command and its arguments, after --")
    List<String> command;

    private final TopologySource topologySource;
    private final PrintStream err;

    public ExecCommand()
    {
        this(fsRoot -> TopologyDiscovery.discover(fsRoot.map(DiscoveryOptions::fsRoot).orElseGet(DiscoveryOptions::live)), System.err);
    }

    ExecCommand(TopologySource topologySource, PrintStream err)
    {
        this.topologySource = requireNonNull(topologySource, "topologySource is null");
        this.err = requireNonNull(err, "err is null");
    }

    @Override
    public Integer call()
    {
        try {
            return run();
        }
        catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            err.println("chiplet exec: " + e.getMessage());
            return 2;
        }
    }

    private int run()
    {
        ThreadAffinity affinity = new ThreadAffinity(PinningBackend.fromName(backend), AllowedCpus.live());
        if (target.cpus != null) {
            return launch(affinity, parseCpus(target.cpus), Optional.empty());
        }
        if (target.chiplets != null) {
            Topology topology = topologySource.read(Optional.ofNullable(fsRoot));
            CpuSet cpus = CpuSet.empty();
            List<Integer> nodes = new ArrayList<>();
            for (int id : target.chiplets) {
                Chiplet chiplet = topology.chiplet(id).orElseThrow(() -> new IllegalArgumentException(
                        "--chiplet " + id + ": no such chiplet (this machine has " + describe(topology.chiplets()) + ")"));
                cpus = cpus.union(chiplet.cpus());
                nodes.add(chiplet.numaNode());
            }
            return launch(affinity, cpus, Optional.of(nodes));
        }
        return switch (target.policy.strip().toLowerCase(Locale.ROOT)) {
            case "wim" -> launch(affinity, affinity.allowed().allowed(), Optional.empty());
            case "wicp-local" -> launchOnLeasedChiplet(affinity);
            default -> launchPlanned(affinity, target.policy);
        };
    }

    /** Any other policy places the command as the planner places a single worker (win: one node, wic: one core, ...). */
    private int launchPlanned(ThreadAffinity affinity, String policyName)
    {
        Policy policy;
        try {
            policy = Policy.parse(policyName);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--policy " + policyName + ": " + e.getMessage(), e);
        }
        Topology topology = topologySource.read(Optional.ofNullable(fsRoot));
        Assignment assignment = PlacementPlanner.plan(topology, PlacementRequest.of(topology, policy, 1).withAllowed(affinity.allowed().allowed()))
                .assignments().get(0);
        return launch(affinity, assignment.cpus(), Optional.of(List.of(assignment.numaNode())));
    }

    private int launchOnLeasedChiplet(ThreadAffinity affinity)
    {
        Topology topology = topologySource.read(Optional.ofNullable(fsRoot));
        // Only chiplets this process may run on all of: a lease on a chiplet outside the cpuset would be useless.
        List<Chiplet> usable = topology.chiplets().stream()
                .filter(chiplet -> affinity.allowed().allowed().containsAll(chiplet.cpus()))
                .toList();
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("--policy wicp-local: no chiplet lies wholly within the CPUs allowed here (" + affinity.allowed().allowed().toList() + ")");
        }
        Path directory = Optional.ofNullable(leaseDirectory).orElseGet(ChipletLeases::defaultDirectory);
        try (ChipletLeases leases = ChipletLeases.open(directory, usable);
                ChipletLeases.LeaseSet set = leases.acquire(1)) {
            ChipletLease lease = set.leases().get(0);
            if (lease.shared()) {
                err.println("chiplet exec: " + lease.describe());
            }
            // The lease is held until the command ends: this JVM waits for it.
            return launch(affinity, lease.chiplet().cpus(), Optional.of(List.of(lease.chiplet().numaNode())));
        }
    }

    private int launch(ThreadAffinity affinity, CpuSet cpus, Optional<List<Integer>> chipletNodes)
    {
        Optional<MemoryPolicy> memory = Optional.empty();
        if (membind) {
            SortedSet<Integer> nodes = chipletNodes.<SortedSet<Integer>>map(TreeSet::new)
                    .orElseGet(() -> CpuNodes.containing(Optional.ofNullable(fsRoot).orElse(Path.of("/")), cpus));
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("--membind: no NUMA node holds CPUs " + cpus.toList());
            }
            memory = Optional.of(MemoryPolicy.bind(nodes));
        }
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        Process process;
        MemoryPolicy previousPolicy = MemoryPolicy.ofCurrentThread();
        try (PinnedThread pinned = affinity.pinCurrentThread(cpus)) {
            memory.ifPresent(MemoryPolicy::applyToCurrentThread);
            try {
                process = builder.start();
            }
            catch (IOException e) {
                err.println("chiplet exec: cannot run " + command.get(0) + ": " + e.getMessage());
                return 127;
            }
            finally {
                if (memory.isPresent()) {
                    previousPolicy.applyToCurrentThread();
                }
            }
        }
        try {
            return process.waitFor();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            err.println("chiplet exec: interrupted; stopped " + command.get(0));
            return 130;
        }
    }

    private static CpuSet parseCpus(String text)
    {
        try {
            return CpuSet.parseList(text);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cpus: " + e.getMessage(), e);
        }
    }

    private static String describe(List<Chiplet> chiplets)
    {
        if (chiplets.isEmpty()) {
            return "no chiplets";
        }
        return "chiplets " + chiplets.get(0).id() + "-" + chiplets.get(chiplets.size() - 1).id();
    }
}
