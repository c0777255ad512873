package io.chiplet.cli;

import io.chiplet.advice.PlanFormatter;
import io.chiplet.binding.ChipletLock;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.HostDivision;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.PlacementRequest;
import io.chiplet.placement.Policy;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.SettingValues;
import io.chiplet.settings.UnusableValueException;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/** {@code chiplet plan}: where each worker would run under a policy, on this machine or a snapshot. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plans worker placement: the CPUs and memory node every worker is bound to, as chiplet exec and the plugins bind them.")
public final class PlanCommand
        implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--policy", required = true, paramLabel = "POLICY",
            description = "wim, win, wicp-local, wicp-mixed, wic, auto or adaptive.")
    String policy;

    @Option(names = "--workers", required = true, paramLabel = "N", description = "Worker instances to place.")
    int workers;

    @Option(names = "--working-set", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Bytes a worker touches repeatedly (1073741824, 64MiB, 1GiB); auto chooses from it.")
    Long workingSet;

    @Option(names = "--membind", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Bind each worker's memory to its chiplet's node, where this process may allocate from more than one node: the plugins' memory.bind "
                    + "(default: ${DEFAULT-VALUE}); chiplet exec binds memory only with --membind.")
    boolean membind;

    @Option(names = "--memory-kind", paramLabel = "dram|hbm|cxl-pmem", defaultValue = "dram",
            description = "The kind of memory a chiplet's node is (the plugins' memory.kind, exec's --memory-kind; default: ${DEFAULT-VALUE}).")
    String memoryKind;

    @Option(names = "--chiplets", paramLabel = "N|all", defaultValue = "all",
            description = "Plan on the chiplets one JVM leases on an otherwise idle host when it takes N of them: Trino's chiplets-per-node, "
                    + "or a Spark executor sharing its host (the chiplets its cores need). Default: ${DEFAULT-VALUE}, every usable chiplet.")
    String chiplets;

    @ArgGroup(exclusive = true)
    TopologySourceOptions source = new TopologySourceOptions();

    @Mixin
    ReportOptions report = new ReportOptions();

    private final Function<DiscoveryOptions, Topology> discovery;

    public PlanCommand()
    {
        this(TopologyDiscovery::discover);
    }

    PlanCommand(Function<DiscoveryOptions, Topology> discovery)
    {
        this.discovery = requireNonNull(discovery, "discovery is null");
    }

    @Override
    public Integer call()
    {
        Policy parsed;
        try {
            parsed = Policy.parse(policy);
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--policy: " + e.getMessage());
        }
        MemoryKind kind;
        try {
            kind = SettingValues.parseMemoryKind(memoryKind);
        }
        catch (UnusableValueException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--memory-kind " + memoryKind + ": expected " + e.getMessage());
        }
        OptionalInt chipletCount;
        try {
            chipletCount = PluginSettings.CHIPLETS_PER_NODE.parse(chiplets.strip());
        }
        catch (UnusableValueException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--chiplets " + chiplets + ": expected " + e.getMessage());
        }
        if (workers < 1 || workers > PlacementRequest.MAX_WORKERS) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--workers " + workers + ": expected 1 to " + PlacementRequest.MAX_WORKERS);
        }
        OutputFormat format = report.format(spec);
        return CommandErrors.run(spec, () -> {
            Topology topology = report.topology(source, discovery);
            OptionalLong bytes = workingSet == null ? OptionalLong.empty() : OptionalLong.of(workingSet);
            MemoryBinding memory = MemoryBinding.of(topology, membind, kind);
            // What a runner binds: the same share, planner, pin unit and memory rule as chiplet exec and the plugins.
            PlacementDomain share = PlacementDomain.of(topology);
            // A setting that cannot apply here is said, as the plugins log it, not passed over.
            memory.shortfall().ifPresent(problem -> warn("--memory-kind " + memory.kind().jsonName() + ": " + problem));
            if (chipletCount.isPresent()) {
                // As Trino's node runtime: at most every chiplet of the share, and the same warning beyond it.
                HostDivision.LeaseCount count = HostDivision.chipletsRequested(share, chipletCount);
                count.capped().ifPresent(warning -> warn("--chiplets " + chiplets.strip() + ": " + warning));
                share = leasedOnIdleHost(share, count.chiplets(), memory);
            }
            WorkerPlacements targets = PlacementPlanner.targets(share, new PlacementRequest(parsed, workers, bytes, share.shareCpus()), memory);
            spec.commandLine().getOut().print(format == OutputFormat.JSON ? PlanFormatter.json(targets) : PlanFormatter.text(targets));
            spec.commandLine().getOut().flush();
        });
    }

    private void warn(String message)
    {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + message);
        spec.commandLine().getErr().flush();
    }

    /**
     * The share narrowed to the {@code count} chiplets the first JVM on an idle host leases: core's lease itself
     * ({@link ChipletLock}), taken in a lease directory of its own and released at once, so the order is the plugins'.
     */
    private static PlacementDomain leasedOnIdleHost(PlacementDomain share, int count, MemoryBinding memory)
    {
        if (share.chiplets().isEmpty()) {
            // No chiplets (no cache information): the machine is one unit, leased whole.
            return share;
        }
        Path directory;
        try {
            directory = Files.createTempDirectory("chiplet-plan-");
        }
        catch (IOException e) {
            throw new UncheckedIOException("--chiplets: cannot create a lease directory of its own: " + e.getMessage(), e);
        }
        try (ChipletLock lock = ChipletLock.acquire(directory.resolve("leases"), share, count, memory)) {
            return lock.share();
        }
        finally {
            deleteTree(directory);
        }
    }

    private static void deleteTree(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException e) {
            // Only empty lock files in the temporary folder are left behind.
        }
    }
}
