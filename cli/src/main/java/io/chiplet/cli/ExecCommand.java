package io.chiplet.cli;

import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.ProcessAffinityMask;
import io.chiplet.affinity.ChipletLease;
import io.chiplet.affinity.CpuNodes;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.PinningBackend;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.binding.ChipletLock;
import io.chiplet.binding.MemoryEnforcement;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.nativeio.ProcessReplacement;
import io.chiplet.placement.HostDivision;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.Policy;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.SettingValues;
import io.chiplet.settings.UnusableValueException;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import static java.util.Objects.requireNonNull;

/**
 * {@code chiplet exec}: runs a command bound to CPUs or chiplets, as {@code taskset}/{@code numactl} do, and in the same
 * way: it pins its own thread, sets that thread's memory policy, and replaces the JVM with the command
 * ({@code execvp}), which keeps the process id, the affinity, the memory policy and the lease.
 *
 * <p>Why replace rather than start a child and wait: Kubernetes, systemd ({@code KillMode=process}, the PID it
 * tracks) and YARN signal only the process they started, and a launcher can be killed with SIGKILL, which it cannot
 * forward. A waiting JVM would need a signal relay for SIGTERM, SIGINT, SIGHUP and SIGQUIT (the JVM keeps SIGQUIT
 * for thread dumps), {@code PR_SET_PDEATHSIG} in a child the JDK spawns through {@code jspawnhelper} (no hook between
 * fork and exec; and the death signal follows the parent <em>thread</em>), exit-status translation, and 40 MB of
 * idle JVM beside every task. Replaced, the command <em>is</em> the process that gets the signals; there is no
 * launcher to be killed alone, so no orphan can outlive it, and its exit status is the caller's without
 * translation. {@code --policy} (any but wim) keeps its lease by keeping the lock file's descriptor open across
 * {@code execve}: POSIX record locks belong to the process and survive the exec, so the chiplet is leased exactly as
 * long as the command runs, and the kernel frees it however the command ends. Every other descriptor of the JVM is
 * closed on exec, and the signal mask is emptied (the JVM blocks SIGQUIT in its threads).
 *
 * <p>Exit status: the command's own, since the process becomes the command. Failures of {@code chiplet exec} itself
 * use the codes of {@code env}, {@code timeout} and {@code nohup}: 125 for a usage error or a placement that cannot be
 * made, 126 when the command is found but cannot be run, 127 when it is not found.
 */
@Command(
        name = "exec",
        mixinStandardHelpOptions = true,
        description = {
                "Runs a command bound to CPUs or chiplets, like taskset or numactl but chiplet-aware.",
                "chiplet exec replaces itself with the command, which keeps the process id, so signals reach the command and its exit "
                        + "status is the command's.",
                "Exits 125 when chiplet exec itself fails, 126 when the command cannot be run, 127 when it is not found."
        })
public final class ExecCommand
        implements Callable<Integer>
{
    /** A usage error or a placement that cannot be made, as {@code env} and {@code timeout} exit. */
    static final int EXEC_FAILED = 125;
    /** The command exists but cannot be run. */
    static final int CANNOT_RUN = 126;
    /** The command is not found. */
    static final int NOT_FOUND = 127;

    static final class Target
    {
        @Option(names = "--cpus", paramLabel = "LIST", description = "CPUs as a cpulist, e.g. 0-3,8")
        String cpus;

        @Option(names = "--chiplet", paramLabel = "ID", split = ",", description = "chiplet ids, as `chiplet topology` numbers them")
        List<Integer> chiplets;

        @Option(names = "--policy", paramLabel = "POLICY",
                description = "the command is one process placed as one worker, as Spark's executor mode places an executor: wim binds nothing; "
                        + "every other policy (win, wicp-local, wicp-mixed, wic, auto, adaptive) one free chiplet (its allowed CPUs), leased host-wide "
                        + "for as long as the command runs, so concurrent runs spread out")
        String policy;
    }

    @ArgGroup(multiplicity = "1")
    Target target;

    @Option(names = "--membind", description = "also bind the command's memory: with --cpus to the NUMA nodes of those CPUs; with --chiplet or --policy "
            + "to each chiplet's node (as the plugins' memory.bind), only where this process may allocate from more than one node")
    boolean membind;

    @Option(names = "--memory-kind", paramLabel = "dram|hbm|cxl-pmem", defaultValue = "dram",
            description = "with --membind and chiplets: bind to each chiplet's own node (dram, the default) or to the node of that kind local to it "
                    + "(HBM in flat mode, CXL), where the machine has one")
    String memoryKind;

    @Option(names = "--fs-root", paramLabel = "DIR", description = "read the topology from a sysfs snapshot under DIR instead of /")
    Path fsRoot;

    @Option(names = "--backend", paramLabel = "ffm|openhft", defaultValue = "ffm", description = "pinning backend (default: ${DEFAULT-VALUE})")
    String backend;

    @Option(names = "--lease-dir", paramLabel = "DIR", description = "chiplet lease directory for --policy, shared by every user of the host "
            + "(default: /tmp/chiplet-leases, created mode 1777)")
    Path leaseDirectory;

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "the command and its arguments, after --")
    List<String> command;

    private final PrintStream err;

    public ExecCommand()
    {
        this(System.err);
    }

    ExecCommand(PrintStream err)
    {
        this.err = requireNonNull(err, "err is null");
    }

    @Override
    public Integer call()
    {
        try {
            return run();
        }
        catch (IllegalArgumentException | IllegalStateException | UncheckedIOException | UnsupportedOperationException | NativeCallException e) {
            err.println("chiplet exec: " + e.getMessage());
            err.flush();
            return EXEC_FAILED;
        }
    }

    private Topology topology()
    {
        return TopologyDiscovery.discover(fsRoot == null ? DiscoveryOptions.live() : DiscoveryOptions.fsRoot(fsRoot));
    }

    private int run()
    {
        if (fsRoot != null) {
            // Checked even where the target needs no topology (--cpus): a snapshot that is not there is a mistake to name.
            try {
                topology();
            }
            catch (TopologyException e) {
                throw new IllegalArgumentException("--fs-root " + fsRoot + ": " + e.getMessage(), e);
            }
        }
        // The CPUs this process started with bound the command too: under taskset -c 1 nothing runs on CPU 0.
        PinnableCpus live = PinnableCpus.live();
        ThreadBinder binder = new ThreadBinder(PinningBackend.fromName(backend), new ProcessAffinityMask().affinityMask().map(live::withinMask).orElse(live));
        if (parseMemoryKind() != MemoryKind.DRAM && (target.cpus != null || !membind)) {
            throw new IllegalArgumentException("--memory-kind " + memoryKind + ": chooses a node per chiplet; it needs --membind and --chiplet or --policy, not --cpus");
        }
        if (target.cpus != null) {
            // An explicit CPU list is bound as given, with its CPUs' nodes under --membind, as numactl does.
            CpuSet cpus = parseCpus(target.cpus);
            return launch(binder, cpus, MemoryEnforcement.BOUND.policyFor(membind ? cpuNodes(cpus) : new TreeSet<>()), List.of());
        }
        Topology topology = topology();
        MemoryBinding memory = MemoryBinding.of(topology, membind, parseMemoryKind());
        if (target.chiplets != null) {
            // The named chiplets' allowed CPUs and memory nodes, as a lease of them would bind (core's share and rule).
            PlacementDomain chosen = chosenChiplets(topology, binder);
            warnShortfall(memory);
            return launch(binder, chosen.shareCpus(), MemoryEnforcement.BOUND.policyFor(chosen.memoryNodesToBind(memory)), List.of());
        }
        Policy policy;
        try {
            policy = Policy.parse(target.policy);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--policy " + target.policy + ": " + e.getMessage(), e);
        }
        PlacementDomain share = share(topology, binder);
        // The command is one process placed as one worker: core's one rule for that, as Spark's executor mode binds an executor.
        return switch (policy.processBinding()) {
            case NOTHING -> replace(List.of());
            case LEASED_CHIPLET -> launchOnLeasedChiplet(binder, share, policy, memory);
        };
    }

    /**
     * Where the command may be placed: core's share of this process ({@link PlacementDomain#ofProcess}); a snapshot
     * ({@code --fs-root}) may name CPUs this machine does not let us use.
     *
     * @throws io.chiplet.placement.NoUsableChipletException when no chiplet holds a CPU this process may use
     */
    private static PlacementDomain share(Topology topology, ThreadBinder binder)
    {
        return PlacementDomain.ofProcess(topology, binder.pinnable().cpus());
    }

    /** The share narrowed to the {@code --chiplet} ids, each checked to exist and to hold a CPU this process may use. */
    private PlacementDomain chosenChiplets(Topology topology, ThreadBinder binder)
    {
        List<Chiplet> chosen = new ArrayList<>();
        for (int id : target.chiplets) {
            chosen.add(topology.chiplet(id).orElseThrow(() -> new IllegalArgumentException(
                    "--chiplet " + id + ": no such chiplet (this machine has " + describe(topology.chiplets()) + ")")));
        }
        PlacementDomain share = share(topology, binder);
        for (Chiplet chiplet : chosen) {
            if (!share.ids().contains(chiplet.id())) {
                throw new IllegalArgumentException("--chiplet " + chiplet.id() + ": none of its CPUs (" + chiplet.cpus().toList()
                        + ") is one this process may use (" + share.shareCpus().toList() + ")");
            }
        }
        return share.leased(chosen);
    }

    /**
     * Every policy but wim ({@link Policy.ProcessBinding#LEASED_CHIPLET}): one free chiplet, leased host-wide for as long
     * as the command runs, and the command bound to what core's {@link HostDivision#processTarget} gives a process on it.
     * The lock is closed only when the launch fails: on success the process becomes the command and keeps the lock file open.
     */
    private int launchOnLeasedChiplet(ThreadBinder binder, PlacementDomain share, Policy policy, MemoryBinding memory)
    {
        Path directory = Optional.ofNullable(leaseDirectory).orElseGet(() -> PluginSettings.LEASE_DIR.defaultParsed().orElseThrow());
        try (ChipletLock lock = ChipletLock.acquire(directory, share, 1, memory)) {
            ChipletLease lease = lock.leases().get(0);
            if (lease.shared()) {
                err.println("chiplet exec: " + lease.describe());
            }
            warnShortfall(memory);
            WorkerPlacement target = HostDivision.processPlacement(lock.share(), policy, memory);
            // Never restored: this thread becomes the command, which keeps its binding across execve; should that fail,
            // the command ends here and closing the lock gives up the lease.
            return launch(binder, target.cpusToBind().orElseThrow(), MemoryEnforcement.BOUND.policyFor(target.memoryNodeToBind()), lock.lockFiles());
        }
    }

    /** Core's word on what {@code --memory-kind} cannot honour on this machine, as the plugins log it. */
    private void warnShortfall(MemoryBinding memory)
    {
        memory.shortfall().ifPresent(problem -> err.println("chiplet exec: --memory-kind " + memory.kind().jsonName() + ": " + problem));
    }

    private SortedSet<Integer> cpuNodes(CpuSet cpus)
    {
        SortedSet<Integer> nodes = CpuNodes.containing(Optional.ofNullable(fsRoot).orElse(Path.of("/")), cpus);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("--membind: no NUMA node holds CPUs " + cpus.toList());
        }
        return nodes;
    }

    private MemoryKind parseMemoryKind()
    {
        try {
            return SettingValues.parseMemoryKind(memoryKind);
        }
        catch (UnusableValueException e) {
            throw new IllegalArgumentException("--memory-kind " + memoryKind + ": expected " + e.getMessage(), e);
        }
    }

    /** Binds this thread to {@code cpus} and {@code memory} (none: memory left alone), then replaces the process with the command. */
    private int launch(ThreadBinder binder, CpuSet cpus, Optional<MemoryPolicy> memory, List<Path> keepOpen)
    {
        // Never restored: this thread becomes the command, which keeps its affinity and memory policy across execve.
        binder.bindCurrentThread(binder.prepare(cpus, memory));
        return replace(keepOpen);
    }

    /** Replaces the process with the command; returns only when that fails. */
    private int replace(List<Path> keepOpen)
    {
        int errno = ProcessReplacement.replaceWith(command, keepOpen);
        String program = command.get(0);
        err.println("chiplet exec: cannot run " + program + ": " + Errno.describe(errno) + " (" + Errno.name(errno) + ")");
        err.flush();
        return errno == Errno.ENOENT || errno == Errno.ENOTDIR ? NOT_FOUND : CANNOT_RUN;
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
        return chiplets.size() == 1 ? "one chiplet, " + chiplets.get(0).id() : "chiplets " + chiplets.get(0).id() + "-" + chiplets.get(chiplets.size() - 1).id();
    }
}
