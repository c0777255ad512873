package io.chiplet.cli;

import io.chiplet.affinity.AllowedCpus;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadId;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.chiplet.topology.Snapshots;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Live: runs real commands bound to CPU 1 of this machine. */
class ExecCommandTest
{
    // Two one-CPU chiplets on one node, standing in for the topology reader.
    private static final Topology TWO_CHIPLETS = new Topology("fixture", CpuSet.range(0, 1), CpuSet.range(0, 1), CpuSet.range(0, 1),
            List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of(new Chiplet(0, 0, 0, CpuSet.of(0), 0, ChipletBasis.VIRTUAL), new Chiplet(1, 0, 0, CpuSet.of(1), 0, ChipletBasis.VIRTUAL)),
            List.of());

    @TempDir
    Path directory;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void needsCpu1()
    {
        assumeTrue(AllowedCpus.live().allowed().contains(1), "needs CPU 1 allowed");
    }

    private int exec(String... args)
    {
        ExecCommand command = new ExecCommand(fsRoot -> TWO_CHIPLETS, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CommandLine(command).execute(args);
    }

    private String errors()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private String shellReport(String... execOptions)
            throws IOException
    {
        Path out = directory.resolve("out.txt");
        String script = "grep Cpus_allowed_list /proc/self/status > " + out + "; head -1 /proc/self/numa_maps | cut -d' ' -f2 >> " + out;
        List<String> args = new ArrayList<>(List.of(execOptions));
        args.addAll(List.of("--", "sh", "-c", script));
        assertThat(exec(args.toArray(String[]::new))).as(errors()).isZero();
        return Files.readString(out);
    }

    @Test
    void childRunsOnTheCpusAndCallerIsRestored()
            throws IOException
    {
        CpuSet before = ThreadId.cpusAllowed(ThreadId.current()).orElseThrow();
        assertThat(shellReport("--cpus", "1")).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
        assertThat(ThreadId.cpusAllowed(ThreadId.current())).contains(before);
    }

    @Test
    void membindBindsTheChildsMemoryToTheCpusNodes()
            throws IOException
    {
        assertThat(shellReport("--cpus", "1", "--membind")).isEqualTo("Cpus_allowed_list:\t1\nbind:0\n");
        assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(MemoryPolicy.systemDefault());
    }

    @Test
    void chipletsSelectTheirCpus()
            throws IOException
    {
        assertThat(shellReport("--chiplet", "1")).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
        assertThat(shellReport("--chiplet", "0,1", "--membind")).isEqualTo("Cpus_allowed_list:\t0-1\nbind:0\n");
    }

    @Test
    void wicpLocalLeasesAFreeChiplet()
            throws IOException
    {
        assertThat(shellReport("--policy", "wicp-local", "--lease-dir", directory.resolve("leases").toString()))
                .isEqualTo("Cpus_allowed_list:\t0\ndefault\n");
    }

    @Test
    void exitCodeIsTheChilds()
    {
        assertThat(exec("--cpus", "0", "--", "sh", "-c", "exit 7")).isEqualTo(7);
    }

    @Test
    void disallowedCpuIsOneClearLine()
    {
        int missing = AllowedCpus.live().present().last() + 6;
        assertThat(exec("--cpus", Integer.toString(missing), "--", "true")).isEqualTo(2);
        assertThat(errors()).isEqualTo("chiplet exec: CPU " + missing + " is not allowed for this process (allowed: "
                + AllowedCpus.live().allowed().toList() + "); this machine has no such CPU" + System.lineSeparator());
    }

    @Test
    void usageErrorsAreOneClearLine()
    {
        assertThat(exec("--cpus", "1-x", "--", "true")).isEqualTo(2);
        assertThat(errors()).startsWith("chiplet exec: --cpus: expected a cpulist like 0-3,8 but found \"1-x\"");
        err.reset();
        assertThat(exec("--chiplet", "9", "--", "true")).isEqualTo(2);
        assertThat(errors()).startsWith("chiplet exec: --chiplet 9: no such chiplet (this machine has chiplets 0-1)");
        err.reset();
        assertThat(exec("--policy", "spread", "--", "true")).isEqualTo(2);
        assertThat(errors()).startsWith("chiplet exec: --policy spread: unknown placement policy \"spread\"; expected one of wim, win, wicp-local");
        err.reset();
        assertThat(exec("--cpus", "1", "--", "/no/such/command")).isEqualTo(127);
        assertThat(errors()).startsWith("chiplet exec: cannot run /no/such/command:");
    }

    @Test
    void plannerPoliciesPlaceTheCommandAsOneWorker(@TempDir Path temp)
    {
        // On the two-chiplet snapshot the planner gives one worker CPU 0 under wic (one core) and wicp-mixed
        // (the first chiplet); win gives the one NUMA node, both CPUs.
        Path root = Snapshots.unpack("two-cpus-two-chiplets", temp);
        for (String policy : List.of("wic", "wicp-mixed")) {
            int status = new CommandLine(new ExecCommand()).execute("--fs-root", root.toString(), "--policy", policy, "--",
                    "sh", "-c", "grep -q '^Cpus_allowed_list:[[:space:]]*0$' /proc/self/status");
            assertThat(status).as(policy).isZero();
        }
        int status = new CommandLine(new ExecCommand()).execute("--fs-root", root.toString(), "--policy", "win", "--",
                "sh", "-c", "grep -q '^Cpus_allowed_list:[[:space:]]*0-1$' /proc/self/status");
        assertThat(status).as("win").isZero();
    }

    @Test
    void chipletOfASnapshotIsReadThroughDiscoveryAndBindsTheChild(@TempDir Path temp)
    {
        // The default command reads the topology through TopologyDiscovery: chiplet 1 of the two-chiplet snapshot
        // is CPU 1, and the child's exit status says whether the kernel bound it there.
        Path root = Snapshots.unpack("two-cpus-two-chiplets", temp);
        ExecCommand command = new ExecCommand();
        int status = new CommandLine(command).execute("--fs-root", root.toString(), "--chiplet", "1", "--",
                "sh", "-c", "grep -q '^Cpus_allowed_list:[[:space:]]*1$' /proc/self/status");
        assertThat(status).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"POSIX_SPAWN", "FORK"})
    void cliInSeparateJvmPrintsTheChildsCpus(String launchMechanism)
            throws Exception
    {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Djdk.lang.Process.launchMechanism=" + launchMechanism,
                "-cp", System.getProperty("java.class.path"), ChipletCli.class.getName(),
                "exec", "--cpus", "1", "--", "grep", "Cpus_allowed_list", "/proc/self/status")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output).isEqualTo("Cpus_allowed_list:\t1\n");
        assertThat(process.exitValue()).isZero();
    }
}
