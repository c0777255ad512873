package io.chiplet.cli;

import io.chiplet.advice.Advice;
import io.chiplet.advice.ClusterAdvice;
import io.chiplet.advice.PlanFormatter;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Engine;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/** {@code chiplet advise}: Spark or Trino settings for this machine (or a snapshot), each with its reason. */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = "Prints engine settings fitted to the machine's chiplets, each with a one-line reason; with --cluster-manager, also what Kubernetes, YARN or a plain host must hand out.")
public final class AdviseCommand
        implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--engine", required = true, paramLabel = "ENGINE", converter = EngineConverter.class, description = "spark or trino.")
    Engine engine;

    @Option(names = {"--executors-per-host", "--workers-per-host"}, paramLabel = "N",
            description = "Executors (Spark) or workers (Trino) per machine; default one per chiplet.")
    Integer workersPerHost;

    @Option(names = "--data-bytes", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Data a job shuffles (1073741824, 64MiB, 1GiB); sizes the partition count.")
    Long dataBytes;

    @Option(names = "--hosts", paramLabel = "N",
            description = "Hosts like this one in the cluster; Trino's hash partition counts count all their workers.")
    Integer hosts;

    @Option(names = "--cluster-manager", paramLabel = "MANAGER", description = "kubernetes, yarn or standalone: the settings that make it hand "
            + "out chiplet-aligned CPUs (kubelet, pod resources, yarn-site), with fragments to paste.")
    String clusterManager;

    @ArgGroup(exclusive = true)
    TopologySourceOptions source = new TopologySourceOptions();

    @Mixin
    ReportOptions report = new ReportOptions();

    private final Function<DiscoveryOptions, Topology> discovery;

    static final class EngineConverter
            implements CommandLine.ITypeConverter<Engine>
    {
        @Override
        public Engine convert(String value)
        {
            return Engine.parse(value).orElseThrow(() -> new CommandLine.TypeConversionException("expected " + Engine.validNames() + " but found \"" + value + "\""));
        }
    }

    public AdviseCommand()
    {
        this(TopologyDiscovery::discover);
    }

    AdviseCommand(Function<DiscoveryOptions, Topology> discovery)
    {
        this.discovery = requireNonNull(discovery, "discovery is null");
    }

    /** The settings with their reasons, then each fragment under a comment line naming where it goes. */
    static String text(ClusterAdvice advice)
    {
        StringBuilder out = new StringBuilder(PlanFormatter.text(advice.settings()));
        for (ClusterAdvice.Fragment fragment : advice.fragments()) {
            String comment = fragment.syntax().equals("xml") ? "<!-- " + fragment.title() + " -->" : "# " + fragment.title();
            out.append(System.lineSeparator()).append(comment).append(System.lineSeparator())
                    .append(fragment.text().replace("\n", System.lineSeparator()));
        }
        return out.toString();
    }

    static String json(ClusterAdvice advice)
    {
        return PlanFormatter.jsonDocument(json -> {
            PlanFormatter.writeSettings(json, advice.settings());
            json.writeArrayFieldStart("fragments");
            for (ClusterAdvice.Fragment fragment : advice.fragments()) {
                json.writeStartObject();
                json.writeStringField("title", fragment.title());
                json.writeStringField("syntax", fragment.syntax());
                json.writeStringField("text", fragment.text());
                json.writeEndObject();
            }
            json.writeEndArray();
        });
    }

    private static OptionalInt optional(Integer value)
    {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    @Override
    public Integer call()
    {
        if (hosts != null && hosts < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--hosts " + hosts + ": expected a positive number of hosts");
        }
        if (workersPerHost != null && workersPerHost < 1) {
            // Named as the user wrote it: --executors-per-host and --workers-per-host are one option.
            String name = spec.commandLine().getParseResult().originalArgs().stream().anyMatch(arg -> arg.startsWith("--executors-per-host"))
                    ? "--executors-per-host" : "--workers-per-host";
            throw new CommandLine.ParameterException(spec.commandLine(), name + " " + workersPerHost + ": expected a positive number per host");
        }
        OutputFormat format = report.format(spec);
        return CommandErrors.run(spec, () -> {
            Topology topology = report.topology(source, discovery);
            if (clusterManager != null) {
                ClusterAdvice.ClusterManager manager;
                try {
                    manager = ClusterAdvice.ClusterManager.parse(clusterManager);
                }
                catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--cluster-manager: " + e.getMessage(), e);
                }
                ClusterAdvice advice = ClusterAdvice.advise(manager, engine, topology, topology.allowed(), optional(workersPerHost),
                        dataBytes == null ? OptionalLong.empty() : OptionalLong.of(dataBytes), optional(hosts));
                spec.commandLine().getOut().print(format == OutputFormat.JSON ? json(advice) : text(advice));
                spec.commandLine().getOut().flush();
                return;
            }
            List<AdvisedSetting> settings = Advice.advise(engine, topology, topology.allowed(), optional(workersPerHost),
                    dataBytes == null ? OptionalLong.empty() : OptionalLong.of(dataBytes), optional(hosts));
            spec.commandLine().getOut().print(format == OutputFormat.JSON ? PlanFormatter.json(settings) : PlanFormatter.text(settings));
            spec.commandLine().getOut().flush();
        });
    }
}
