package io.chiplet.cli;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static io.chiplet.topology.HandBuiltTopologies.cgroupRestricted;
import static io.chiplet.topology.HandBuiltTopologies.dualEpycMilan;
import static org.assertj.core.api.Assertions.assertThat;

class TestTopologyCommand
{
    @TempDir
    Path temp;

    private final List<DiscoveryOptions> requests = new ArrayList<>();

    @Test
    void textIsTheDefaultAndReadsTheLiveMachine()
    {
        Result result = run(options -> dualEpycMilan(), "topology");

        assertThat(result.exitCode).isZero();
        assertThat(result.err).isEmpty();
        assertThat(result.out).isEqualTo(TopologyText.render(dualEpycMilan()) + "native path: " + NativeAccess.path() + System.lineSeparator());
        assertThat(requests).containsExactly(new DiscoveryOptions(Optional.empty(), Optional.empty(), 0));
    }

    @Test
    void jsonFromASnapshotWithVirtualChiplets()
            throws IOException
    {
        Path root = Files.createDirectory(temp.resolve("snapshot"));

        Result result = run(options -> cgroupRestricted(), "topology", "--fs-root", root.toString(), "--format", "json", "--virtual-chiplet-cores", "4");

        assertThat(result.exitCode).isZero();
        assertThat(result.out).startsWith("{\n  \"schema\": \"chiplet.topology/v1\",").endsWith("}\n");
        assertThat(result.out).contains("\"allowed\": \"8-15,24-27\"");
        assertThat(requests).containsExactly(new DiscoveryOptions(Optional.of(root), Optional.empty(), 4));
    }

    @Test
    void svgFromAnHwlocXml()
            throws IOException
    {
        Path xml = Files.writeString(temp.resolve("machine.xml"), "<topology/>");

        Result result = run(options -> cgroupRestricted(), "topology", "--hwloc-xml", xml.toString(), "--format", "SVG");

        assertThat(result.exitCode).isZero();
        assertThat(result.out).startsWith("<?xml").contains("<svg ").endsWith("</svg>\n");
        assertThat(requests).containsExactly(new DiscoveryOptions(Optional.empty(), Optional.of(xml), 0));
    }

    @Test
    void usageErrorsAreOneLineAndExitTwo()
            throws IOException
    {
        Path xml = Files.writeString(temp.resolve("machine.xml"), "<topology/>");
        List<String[]> bad = List.of(
                new String[] {"topology", "--fs-root", temp.toString(), "--hwloc-xml", xml.toString()},
                new String[] {"topology", "--format", "xml"},
                new String[] {"topology", "--virtual-chiplet-cores", "-1"},
                new String[] {"topology", "--virtual-chiplet-cores", "four"},
                new String[] {"topology", "--fs-root", temp.resolve("missing").toString()},
                new String[] {"topology", "--hwloc-xml", temp.toString()},
                new String[] {"topology", "--no-such-option"},
                new String[] {"no-such-command"});
        for (String[] args : bad) {
            Result result = run(options -> dualEpycMilan(), args);

            assertThat(result.exitCode).as(String.join(" ", args)).isEqualTo(2);
            assertThat(result.out).as(String.join(" ", args)).isEmpty();
            assertThat(result.err).as(String.join(" ", args)).startsWith(args[0].equals("topology") ? "chiplet topology: " : "chiplet: ").endsWith("\n").hasLineCount(1);
        }
        assertThat(requests).isEmpty();
    }

    @Test
    void usageErrorsSayWhatWasExpected()
    {
        assertThat(run(options -> dualEpycMilan(), "topology", "--format", "xml").err)
                .isEqualTo("chiplet topology: Invalid value for option '--format': expected text, json or svg but found 'xml' (see 'chiplet topology --help')\n");
        assertThat(run(options -> dualEpycMilan(), "topology", "--fs-root", temp.resolve("missing").toString()).err)
                .contains("--fs-root " + temp.resolve("missing") + ": expected a directory holding sys/ and proc/ but it does not exist");
        assertThat(run(options -> dualEpycMilan(), "topology", "--fs-root", "a", "--hwloc-xml", "b").err)
                .contains("mutually exclusive");
    }

    @Test
    void discoveryFailureIsOneLineAndExitsOne()
    {
        Result result = run(options -> {
            throw new TopologyException("/snap/sys/devices/system/cpu/online: expected a cpulist like 0-3,8 but found \"0-x\"");
        }, "topology", "--format", "json");

        assertThat(result.exitCode).isEqualTo(1);
        assertThat(result.out).isEmpty();
        assertThat(result.err).isEqualTo("chiplet topology: /snap/sys/devices/system/cpu/online: expected a cpulist like 0-3,8 but found \"0-x\"\n");
    }

    @Test
    void bugsAreNamedButNeverAStackTrace()
    {
        Result result = run(options -> {
            throw new NullPointerException("cores is null");
        }, "topology");

        assertThat(result.exitCode).isEqualTo(1);
        assertThat(result.err).isEqualTo("chiplet topology: internal error: java.lang.NullPointerException: cores is null\n");
        assertThat(ChipletCli.describe(new IllegalStateException("first\n  second"))).isEqualTo("first; second");
        assertThat(ChipletCli.describe(new IOException())).isEqualTo("internal error: java.io.IOException");
    }

    @Test
    void everyCommandHasHelp()
    {
        CommandLine cli = ChipletCli.commandLine();
        List<String> names = new ArrayList<>(cli.getSubcommands().keySet());
        assertThat(names).contains("topology", "help");
        for (String name : names) {
            Result result = run(options -> dualEpycMilan(), name, "--help");
            assertThat(result.exitCode).as(name).isZero();
            assertThat(result.out).as(name).contains("Usage: chiplet " + name + " ");
        }
        // --version, which every --help lists, prints the one version everywhere (it printed nothing after a command).
        String version = run(options -> dualEpycMilan(), "--version").out;
        assertThat(version).startsWith("chiplet ").hasLineCount(1);
        for (String name : names) {
            if (!name.equals("help")) {
                assertThat(run(options -> dualEpycMilan(), name, "--version").out).as(name).isEqualTo(version);
            }
        }
        Result topology = run(options -> dualEpycMilan(), "topology", "--help");
        assertThat(topology.out).contains("--fs-root=DIR", "--hwloc-xml=FILE", "--format=FORMAT", "--virtual-chiplet-cores=N");
        String usage = run(options -> dualEpycMilan(), "--help").out;
        assertThat(usage).startsWith("Usage: chiplet ").contains("topology").contains("  demo ").contains("  bench ");
        // Each command's line in the list is a whole sentence.
        for (String name : names) {
            if (!name.equals("help")) {
                int start = usage.indexOf("\n  " + name + " ") + 1;
                assertThat(start).as(name).isPositive();
                String summary = usage.substring(start, nextEntry(usage, start));
                assertThat(summary.strip()).as(name).endsWith(".");
            }
        }
    }

    /** Where the next command's entry starts: a line indented by two spaces and a word, after {@code from}. */
    private static int nextEntry(String usage, int from)
    {
        java.util.regex.Matcher next = java.util.regex.Pattern.compile("\n(  [a-z]|\n)").matcher(usage);
        return next.find(from) ? next.start() : usage.length();
    }

    @Test
    void noCommandShowsUsageAndExitsTwo()
    {
        Result result = run(options -> dualEpycMilan());

        assertThat(result.exitCode).isEqualTo(2);
        assertThat(result.err).startsWith("Usage: chiplet ").contains("topology");
    }

    @Test
    void missingSnapshotIsAUsageErrorWithTheRealDiscovery()
    {
        StringWriter err = new StringWriter();
        CommandLine cli = ChipletCli.commandLine();
        cli.setErr(new PrintWriter(err));

        int exitCode = cli.execute("topology", "--fs-root", temp.resolve("nope").toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString()).startsWith("chiplet topology: --fs-root ").hasLineCount(1);
    }

    private Result run(Function<DiscoveryOptions, Topology> discovery, String... args)
    {
        Function<DiscoveryOptions, Topology> recording = options -> {
            requests.add(options);
            return discovery.apply(options);
        };
        CommandLine.IFactory factory = new CommandLine.IFactory()
        {
            @Override
            public <K> K create(Class<K> type)
                    throws Exception
            {
                if (type == TopologyCommand.class) {
                    return type.cast(new TopologyCommand(recording));
                }
                return CommandLine.defaultFactory().create(type);
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = ChipletCli.commandLine(factory);
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exitCode = cli.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    private record Result(int exitCode, String out, String err) {}
}
