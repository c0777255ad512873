package io.chiplet.cli;

import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.util.function.Function;

/**
 * The options of the commands that report on one machine in text or JSON ({@code chiplet plan}, {@code chiplet advise}):
 * how the chiplets of the topology (each command's {@code --fs-root | --hwloc-xml}, neither for the live machine) are split
 * ({@code --virtual-chiplet-cores}, as the plugins split them) and {@code --format}.
 * A picocli mixin, so that both commands take them with the same names, help and checks.
 */
final class ReportOptions
{
    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT", converter = OutputFormat.TextOrJsonConverter.class,
            description = "text or json (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(names = "--virtual-chiplet-cores", paramLabel = "N", defaultValue = "0", converter = VirtualChipletCoresConverter.class,
            description = "Split every chiplet into virtual chiplets of N cores, as the plugins' virtual-chiplet-cores setting does "
                    + "(default: ${DEFAULT-VALUE}, real chiplets).")
    int virtualChipletCores;

    /** The format asked for, checked to be text or JSON. */
    OutputFormat format(CommandSpec spec)
    {
        return OutputFormat.textOrJson(format, spec);
    }

    /**
     * The topology of the chosen source, through {@code discovery}: the live machine where none is chosen. The source
     * group stays in each command: picocli lists an argument group inside a mixin twice in the usage help.
     */
    Topology topology(TopologySourceOptions source, Function<DiscoveryOptions, Topology> discovery)
    {
        TopologySourceOptions from = source == null ? new TopologySourceOptions() : source;
        return discovery.apply(new DiscoveryOptions(from.fsRoot(), from.hwlocXml(), virtualChipletCores));
    }
}
