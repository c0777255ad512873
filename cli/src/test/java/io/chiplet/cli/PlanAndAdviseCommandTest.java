package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.chiplet.placement.TestTopologies;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class PlanAndAdviseCommandTest
{
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Object command, String... args)
    {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args);
    }

    private static Function<DiscoveryOptions, Topology> fixed(Topology topology)
    {
        return options -> topology;
    }

    @Test
    void planPrintsJsonWithOneWorkerPerCcd()
            throws Exception
    {
        int status = run(new PlanCommand(fixed(TestTopologies.dualEpyc7763())), "--policy", "wicp-mixed", "--workers", "16", "--format", "json");
        assertThat(status).as(err.toString()).isZero();
        List<Integer> chiplets = new ArrayList<>();
        List<String> cpus = new ArrayList<>();
        String policy = null;
        try (JsonParser json = new JsonFactory().createParser(out.toString())) {
            while (json.nextToken() != null) {
                if (json.currentToken() == JsonToken.FIELD_NAME) {
                    String name = json.currentName();
                    json.nextToken();
                    switch (name) {
                        case "policy" -> policy = json.getText();
                        case "chiplet" -> chiplets.add(json.getIntValue());
                        case "cpus" -> cpus.add(json.getText());
                        default -> { }
                    }
                }
            }
        }
        assertThat(policy).isEqualTo("wicp-mixed");
        assertThat(chiplets).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        assertThat(cpus.getFirst()).isEqualTo("0-7,128-135");
    }

    @Test
    void planPrintsWhatIsBoundTheWholeChipletUnderWicpLocalAndNothingUnderWim()
    {
        int status = run(new PlanCommand(fixed(TestTopologies.dualEpyc7763())), "--policy", "wicp-local", "--workers", "2");
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).isEqualTo("""
                policy: wicp-local
                reason: fills one chiplet (cores, then SMT siblings) before the next, package by package
                memory: bound to each worker's NUMA node
                worker  chiplet  node  cpus
                0       0        0     0-7,128-135
                1       0        0     0-7,128-135
                """);

        out.getBuffer().setLength(0);
        status = run(new PlanCommand(fixed(TestTopologies.dualEpyc7763())), "--policy", "wim", "--workers", "1");
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).endsWith("""
                memory: not bound under wim
                worker  chiplet  node  cpus
                0       -        -     - (not bound)
                """);

        out.getBuffer().setLength(0);
        status = run(new PlanCommand(fixed(TestTopologies.dualEpyc7763())), "--policy", "wicp-mixed", "--workers", "2", "--no-membind");
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).endsWith("""
                memory: not bound (not asked for)
                worker  chiplet  node  cpus
                0       0        -     0-7,128-135
                1       8        -     64-71,192-199
                """);
    }

    /** The Xeon Max-like snapshot: two chiplets (one per socket), DRAM nodes 0 and 1, CPU-less HBM nodes 2 and 3 beside them. */
    @Test
    void planBindsEachWorkersMemoryToTheNodeOfTheAskedKind(@TempDir Path temp)
    {
        Path root = Snapshots.unpack("cpuless-hbm-cxl", temp);
        int status = run(new PlanCommand(), "--policy", "wicp-mixed", "--workers", "2", "--memory-kind", "hbm", "--fs-root", root.toString());
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).endsWith("""
                memory: bound to each worker's hbm node
                worker  chiplet  node  cpus
                0       0        2     0-55,112-167
                1       1        3     56-111,168-223
                """);

        out.getBuffer().setLength(0);
        status = run(new PlanCommand(), "--policy", "wicp-mixed", "--workers", "2", "--fs-root", root.toString());
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).endsWith("""
                0       0        0     0-55,112-167
                1       1        1     56-111,168-223
                """);
    }

    /** Settings that cannot apply here are said on stderr, as the plugins log them, and bad numbers name their option. */
    @Test
    void settingsThatCannotApplyAreSaidAndBadNumbersNameTheirOption()
    {
        Topology two = TestTopologies.twoChiplets();
        assertThat(cli(two, "plan", "--policy", "wicp-local", "--workers", "1", "--chiplets", "5")).isZero();
        assertThat(err.toString()).isEqualTo("chiplet plan: --chiplets 5: asked for 5 chiplets but this process may use 2: leasing 2\n");
        assertThat(cli(two, "plan", "--policy", "wicp-local", "--workers", "1", "--membind", "--memory-kind", "hbm")).isZero();
        assertThat(err.toString()).isEqualTo("chiplet plan: --memory-kind hbm: has no effect: memory is not bound here (1 NUMA node this process may use, no choice to make)\n");
        assertThat(cli(two, "plan", "--policy", "wicp-local", "--workers", "0")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("chiplet plan: --workers 0: expected 1 to 1048576 (see 'chiplet plan --help')\n");
        assertThat(cli(two, "plan", "--policy", "wicp-local", "--workers", "1", "extra")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("chiplet plan: unexpected argument 'extra' (see 'chiplet plan --help')\n");
        assertThat(cli(two, "advise", "--engine", "spark", "--hosts", "0")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("chiplet advise: --hosts 0: expected a positive number of hosts (see 'chiplet advise --help')\n");
        // The per-host count is named as the user wrote it (it said "workers per host must be positive: 0").
        assertThat(cli(two, "advise", "--engine", "spark", "--executors-per-host", "0")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("chiplet advise: --executors-per-host 0: expected a positive number per host (see 'chiplet advise --help')\n");
        assertThat(cli(two, "advise", "--engine", "trino", "--workers-per-host=-1")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("chiplet advise: --workers-per-host -1: expected a positive number per host (see 'chiplet advise --help')\n");
    }

    /** {@code chiplet ARGS} through the launcher's command line (its error handlers), on {@code topology}. */
    private int cli(Topology topology, String... args)
    {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CommandLine commandLine = ChipletCli.commandLine(new CommandLine.IFactory()
        {
            @Override
            public <K> K create(Class<K> type)
                    throws Exception
            {
                if (type == PlanCommand.class) {
                    return type.cast(new PlanCommand(fixed(topology)));
                }
                if (type == AdviseCommand.class) {
                    return type.cast(new AdviseCommand(fixed(topology)));
                }
                return CommandLine.defaultFactory().create(type);
            }
        });
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args);
    }

    @Test
    void planPassesTheSourceOptionsAndParsesByteSizes()
    {
        AtomicReference<Optional<Path>> seen = new AtomicReference<>();
        Function<DiscoveryOptions, Topology> discovery = options -> {
            seen.set(options.fsRoot());
            return TestTopologies.dualEpyc7763();
        };
        int status = run(new PlanCommand(discovery), "--policy", "auto", "--workers", "8", "--working-set", "16MiB", "--fs-root", "/snap");
        assertThat(status).as(err.toString()).isZero();
        assertThat(seen.get()).contains(Path.of("/snap"));
        assertThat(out.toString()).startsWith("policy: wicp-local (requested auto)").contains("16 MiB");
    }

    /** Trino's chiplets-per-node: a node leases chiplet 0, then the others of its package, before any of the next. */
    @Test
    void planOnALeasedSubsetTakesTheChipletsAnIdleHostsFirstLeaseTakes()
    {
        // Cascade Lake SNC2: chiplet k is NUMA node k, packages alternate (chiplets 0 and 2 on package 0, 1 and 3 on 1).
        int status = run(new PlanCommand(fixed(TestTopologies.cascadeLakeSnc2())), "--policy", "wicp-mixed", "--workers", "3", "--chiplets", "2");
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString()).endsWith("""
                worker  chiplet  node  cpus
                0       0        0     0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76
                1       2        2     2,6,10,14,18,22,26,30,34,38,42,46,50,54,58,62,66,70,74,78
                2       0        0     0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76
                """);

        // More than there are: every chiplet, as Trino's node runtime caps chiplets-per-node.
        out.getBuffer().setLength(0);
        assertThat(run(new PlanCommand(fixed(TestTopologies.cascadeLakeSnc2())), "--policy", "wicp-mixed", "--workers", "4", "--chiplets", "9")).isZero();
        String all = out.toString();
        out.getBuffer().setLength(0);
        assertThat(run(new PlanCommand(fixed(TestTopologies.cascadeLakeSnc2())), "--policy", "wicp-mixed", "--workers", "4")).isZero();
        assertThat(all).isEqualTo(out.toString());

        err.getBuffer().setLength(0);
        assertThat(run(new PlanCommand(fixed(TestTopologies.cascadeLakeSnc2())), "--policy", "wicp-mixed", "--workers", "1", "--chiplets", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--chiplets 0: expected all, or a whole number of chiplets, at least 1").doesNotContain("\tat ");
    }

    @Test
    void planAndAdviseSplitVirtualChipletsAsThePluginsDo()
    {
        List<DiscoveryOptions> seen = new ArrayList<>();
        Function<DiscoveryOptions, Topology> discovery = options -> {
            seen.add(options);
            return TestTopologies.dualEpyc7763();
        };
        assertThat(run(new PlanCommand(discovery), "--policy", "wic", "--workers", "1", "--virtual-chiplet-cores", "4", "--fs-root", "/snap")).as(err.toString()).isZero();
        assertThat(run(new AdviseCommand(discovery), "--engine", "trino", "--virtual-chiplet-cores", "2")).as(err.toString()).isZero();
        assertThat(run(new AdviseCommand(discovery), "--engine", "spark")).as(err.toString()).isZero();
        assertThat(seen).containsExactly(new DiscoveryOptions(Optional.of(Path.of("/snap")), Optional.empty(), 4),
                new DiscoveryOptions(Optional.empty(), Optional.empty(), 2), new DiscoveryOptions(Optional.empty(), Optional.empty(), 0));

        // The plugins' bounds and wording (PluginSettings.VIRTUAL_CHIPLET_CORES), before any topology is read.
        for (String bad : List.of("-1", "four")) {
            err.getBuffer().setLength(0);
            assertThat(run(new PlanCommand(discovery), "--policy", "wic", "--workers", "1", "--virtual-chiplet-cores", bad)).isEqualTo(2);
            assertThat(err.toString()).contains("Invalid value for option '--virtual-chiplet-cores': expected a whole number of cores, 0 (real chiplets) or more but found '" + bad + "'");
        }
        assertThat(seen).hasSize(3);
    }

    /** Advice for a split machine holds only with the plugin split alike, so advise says the setting. */
    @Test
    void adviseOnVirtualChipletsTellsThePluginToSplitAlike(@TempDir Path temp)
    {
        Path root = Snapshots.unpack("cpuless-hbm-cxl", temp);
        assertThat(run(new AdviseCommand(), "--engine", "spark", "--fs-root", root.toString(), "--virtual-chiplet-cores", "4")).as(err.toString()).isZero();
        // Two sockets of 56 cores: 14 virtual chiplets of 4 cores each.
        assertThat(out.toString()).contains("executors per host=28", "spark.executor.cores=4", "spark.chiplet.virtualChipletCores=4");

        out.getBuffer().setLength(0);
        assertThat(run(new AdviseCommand(), "--engine", "trino", "--fs-root", root.toString(), "--virtual-chiplet-cores", "4")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("chiplet.virtual-chiplet-cores=4");

        out.getBuffer().setLength(0);
        assertThat(run(new AdviseCommand(), "--engine", "spark", "--fs-root", root.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("executors per host=2").doesNotContain("virtualChipletCores");
    }

    @Test
    void badInputIsOneClearLineNotAStackTrace()
    {
        assertThat(run(new PlanCommand(fixed(TestTopologies.twoChiplets())), "--policy", "spread", "--workers", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown placement policy \"spread\"").contains("wicp-mixed").doesNotContain("\tat ");

        err.getBuffer().setLength(0);
        assertThat(run(new PlanCommand(fixed(TestTopologies.twoChiplets())), "--policy", "wic", "--workers", "2", "--working-set", "big")).isEqualTo(2);
        assertThat(err.toString()).contains("\"big\"").contains("64MiB");

        err.getBuffer().setLength(0);
        assertThat(run(new PlanCommand(fixed(TestTopologies.twoChiplets())), "--policy", "wic", "--workers", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--workers 0: expected 1 to 1048576");

        err.getBuffer().setLength(0);
        assertThat(run(new PlanCommand(fixed(TestTopologies.twoChiplets())), "--policy", "wic", "--workers", "1", "--fs-root", "a", "--hwloc-xml", "b")).isEqualTo(2);
        assertThat(err.toString()).contains("mutually exclusive");

        err.getBuffer().setLength(0);
        Function<DiscoveryOptions, Topology> broken = options -> {
            throw new IllegalArgumentException("/snap/sys/devices/system/cpu/online: expected a cpulist");
        };
        assertThat(run(new PlanCommand(broken), "--policy", "wic", "--workers", "1")).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("chiplet plan: /snap/sys/devices/system/cpu/online: expected a cpulist");
    }

    @Test
    void eachTopologySourceOptionIsListedOnceInTheHelpAndTheyExcludeEachOther()
    {
        for (Object command : List.of(new PlanCommand(), new AdviseCommand())) {
            String help = new CommandLine(command).getUsageMessage(CommandLine.Help.Ansi.OFF);
            // picocli lists an argument group inside a mixin twice: the source group sits in each command.
            assertThat(help.split("--fs-root=DIR  ", -1)).hasSize(2);
            assertThat(help.split("--hwloc-xml=FILE  ", -1)).hasSize(2);
        }
        assertThat(run(new PlanCommand(fixed(TestTopologies.twoChiplets())), "--fs-root", "/a", "--hwloc-xml", "/b", "--policy", "wim", "--workers", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("--fs-root=DIR, --hwloc-xml=FILE are mutually exclusive");
    }

    @Test
    void svgIsAFormatOnlyTheTopologyWrites()
    {
        assertThat(run(new PlanCommand(fixed(TestTopologies.twoChiplets())), "--policy", "wic", "--workers", "1", "--format", "svg")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '--format': expected text or json but found 'svg'");
        assertThat(out.toString()).isEmpty();

        err.getBuffer().setLength(0);
        assertThat(run(new AdviseCommand(fixed(TestTopologies.twoChiplets())), "--engine", "spark", "--format", "xml")).isEqualTo(2);
        assertThat(err.toString()).contains("expected text or json but found 'xml'");
    }

    @Test
    void adviseSparkOnEpyc()
    {
        int status = run(new AdviseCommand(fixed(TestTopologies.dualEpyc7763())), "--engine", "spark", "--data-bytes", "10GiB");
        assertThat(status).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("executors per host=16")
                .contains("spark.executor.cores=8")
                .contains("spark.sql.shuffle.partitions=2560")
                .contains("spark.sql.adaptive.advisoryPartitionSizeInBytes=4m")
                .contains("spark.plugins=io.chiplet.spark.ChipletPlugin")
                .contains("spark.chiplet.policy=wicp-mixed")
                .contains("    # ");
    }

    @Test
    void adviseTrinoWithOneWorkerPerHost()
    {
        int status = run(new AdviseCommand(fixed(TestTopologies.cascadeLakeSnc2())), "--engine", "TRINO", "--workers-per-host", "1", "--format", "json");
        assertThat(status).as(err.toString()).isZero();
        // 40 physical cores: the largest power of two not above is 32.
        assertThat(out.toString()).contains("\"key\" : \"task_concurrency\",\n    \"value\" : \"32\"")
                .contains("\"chiplet.policy\",\n    \"value\" : \"auto\"");
        assertThat(run(new AdviseCommand(fixed(TestTopologies.cascadeLakeSnc2())), "--engine", "flink")).isEqualTo(2);
        assertThat(err.toString()).contains("expected spark or trino but found \"flink\"");
    }
}
