package io.chiplet.cli;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.report.TopologySvg;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyJson;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/** {@code chiplet topology}: what the machine (or a snapshot of one) looks like, as text, JSON or SVG. */
@Command(
        name = "topology",
        mixinStandardHelpOptions = true,
        description = {
                "Shows the machine's packages, NUMA nodes, chiplets (the L3 / NUMA domains placement works with) and cores.",
                "Reads the live machine unless --fs-root or --hwloc-xml names another source.",
        })
public final class TopologyCommand
        implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    private TopologySourceOptions source;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", converter = OutputFormat.Converter.class,
            description = "text (a chiplet map), json (the chiplet.topology/v1 document) or svg (a picture). Default: ${DEFAULT-VALUE}.")
    private OutputFormat format;

    @Option(names = "--virtual-chiplet-cores", paramLabel = "N", defaultValue = "0", converter = VirtualChipletCoresConverter.class,
            description = "Split every chiplet into virtual chiplets of N cores, for large monolithic L3 parts "
                    + "(Graviton 3, Sapphire Rapids without SNC; the chiplet OLAP study used 4). Default: 0 (off).")
    private int virtualChipletCores;

    private final Function<DiscoveryOptions, Topology> discovery;

    public TopologyCommand()
    {
        this(TopologyDiscovery::discover);
    }

    TopologyCommand(Function<DiscoveryOptions, Topology> discovery)
    {
        this.discovery = requireNonNull(discovery, "discovery is null");
    }

    @Override
    public Integer call()
    {
        DiscoveryOptions options = options();
        Topology topology = discovery.apply(options);
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case TEXT -> {
                out.print(TopologyText.render(topology));
                if (options.fsRoot().isEmpty() && options.hwlocXml().isEmpty()) {
                    // how this JVM would pin on this machine; meaningless for another machine's snapshot
                    out.println("native path: " + NativeAccess.path());
                }
            }
            case JSON -> TopologyJson.write(topology, out);
            case SVG -> out.print(TopologySvg.render(topology));
        }
        out.flush();
        return 0;
    }

    private DiscoveryOptions options()
    {
        Optional<Path> fsRoot = Optional.ofNullable(source).flatMap(TopologySourceOptions::fsRoot);
        Optional<Path> hwlocXml = Optional.ofNullable(source).flatMap(TopologySourceOptions::hwlocXml);
        if (fsRoot.isPresent() && !Files.isDirectory(fsRoot.get())) {
            throw usageError("--fs-root " + fsRoot.get() + ": expected a directory holding sys/ and proc/ but "
                    + (Files.exists(fsRoot.get()) ? "it is not a directory" : "it does not exist"));
        }
        if (hwlocXml.isPresent() && !Files.isRegularFile(hwlocXml.get())) {
            throw usageError("--hwloc-xml " + hwlocXml.get() + ": expected an hwloc XML file but "
                    + (Files.exists(hwlocXml.get()) ? "it is not a regular file" : "it does not exist"));
        }
        return new DiscoveryOptions(fsRoot, hwlocXml, virtualChipletCores);
    }

    private ParameterException usageError(String message)
    {
        return new ParameterException(spec.commandLine(), message);
    }
}
