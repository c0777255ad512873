package io.chiplet.spark.placement;

import io.chiplet.binding.RecordingProcessBinder;
import io.chiplet.cli.ChipletCli;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.HostDivision;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One rule for a process placed as one worker ({@link Policy#processBinding()}, applied by core's
 * {@link HostDivision#processTarget}): Spark's executor mode and {@code chiplet exec --policy} bind a process alike under
 * every policy, on the same machine (a snapshot of two CPUs as two chiplets, each lease directory empty). The
 * executor's binding is recorded; the command's is read from its own {@code /proc/self/status}, after
 * {@code chiplet exec} replaced itself with it. Under {@code wim} neither binds, so both keep this JVM's mask.
 */
class ExecutorModeMatchesChipletExecTest
{
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path directory;

    @ParameterizedTest
    @EnumSource(Policy.class)
    void executorModeAndChipletExecBindAProcessAlike(Policy policy)
            throws Exception
    {
        Path root = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectory(directory.resolve("snapshot")));
        Topology topology = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        CpuSet ownMask = CpuSet.parseList(cpusAllowed(Files.readString(Path.of("/proc/self/status"))));
        // the snapshot's two chiplets are CPUs 0 and 1; both must be ours to bind (as chiplet exec's own tests need)
        assumeTrue(ownMask.contains(0) && ownMask.contains(1), "needs CPUs 0 and 1 allowed");

        RecordingProcessBinder binder = new RecordingProcessBinder(ownMask);
        PlacementSettings settings = ((SparkSettings.Valid) SparkSettings.parse(Map.of(
                SparkSettings.MODE, "executor",
                SparkSettings.POLICY, policy.cliName(),
                SparkSettings.MEMORY_BIND, "true",
                SparkSettings.LEASE_DIR, directory.resolve("executor-leases").toString()))).settings();
        CpuSet executorCpus;
        try (ExecutorProcessPlacement _ = ExecutorProcessPlacement.create(settings, topology, binder)) {
            executorCpus = binder.bound().isEmpty() ? ownMask : binder.bound().getFirst().getKey();
            assertThat(binder.bound()).as("one binding at most").hasSizeLessThanOrEqualTo(1);
        }

        CpuSet commandCpus = CpuSet.parseList(cpusAllowed(exec("--fs-root", root.toString(), "--policy", policy.cliName(), "--membind",
                "--lease-dir", directory.resolve("exec-leases").toString(), "--", "cat", "/proc/self/status")));

        assertThat(commandCpus).as("chiplet exec --policy %s against executor mode", policy).isEqualTo(executorCpus);
        // and the rule is the chiplet: a whole leased one under every policy but wim (on this snapshot, chiplet 0 is CPU 0)
        assertThat(executorCpus).isEqualTo(policy.bindsWorkers() ? CpuSet.of(0) : ownMask);
    }

    /** Runs {@code chiplet exec} as {@code bin/chiplet} does, in a JVM of its own (it becomes the command), and returns what the command printed. */
    private String exec(String... args)
            throws IOException, InterruptedException
    {
        List<String> line = new java.util.ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ChipletCli.class.getName(), "exec"));
        line.addAll(List.of(args));
        Path err = directory.resolve("exec-err.txt");
        Process process = new ProcessBuilder(line).redirectError(err.toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("chiplet exec ended").isTrue();
        assertThat(process.exitValue()).as(Files.readString(err)).isZero();
        return out;
    }

    private static String cpusAllowed(String status)
    {
        return status.lines().filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).strip();
    }
}
