package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.ChipletLeases;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Live: {@code chiplet exec} in a JVM of its own (it replaces that JVM with the command), on the two-chiplet snapshot
 * that maps this machine's CPUs 0 and 1 as chiplets 0 and 1.
 */
class ExecCommandTest
{
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path directory;

    private Path root;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void needsCpu1()
    {
        assumeTrue(PinnableCpus.live().cpus().contains(1), "needs CPU 1 allowed");
    }

    @BeforeEach
    void unpackSnapshot()
            throws IOException
    {
        root = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectory(directory.resolve("snapshot")));
    }

    @AfterEach
    void killLeftovers()
    {
        started.forEach(Process::destroyForcibly);
    }

    private record Run(int status, String out, String err) {}

    private Process start(List<String> jvmOptions, String... args)
            throws IOException
    {
        return start(List.of(), jvmOptions, args);
    }

    /** {@code launcher} runs the JVM, e.g. {@code taskset -c 1}, as a user's shell would. */
    private Process start(List<String> launcher, List<String> jvmOptions, String... args)
            throws IOException
    {
        List<String> line = new ArrayList<>(launcher);
        line.addAll(List.of(ProcessHandle.current().info().command().orElseThrow(), "--enable-native-access=ALL-UNNAMED"));
        line.addAll(jvmOptions);
        line.addAll(List.of("-cp", System.getProperty("java.class.path"), ChipletCli.class.getName(), "exec"));
        line.addAll(List.of(args));
        Process process = new ProcessBuilder(line).redirectError(directory.resolve("err-" + started.size() + ".txt").toFile()).start();
        started.add(process);
        return process;
    }

    private Run exec(String... args)
            throws Exception
    {
        return exec(List.of(), args);
    }

    private Run exec(List<String> jvmOptions, String... args)
            throws Exception
    {
        Process process = start(jvmOptions, args);
        Path errFile = directory.resolve("err-" + (started.size() - 1) + ".txt");
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("chiplet exec ended").isTrue();
        return new Run(process.exitValue(), out, Files.readString(errFile));
    }

    private String[] withSnapshot(String... args)
    {
        List<String> all = new ArrayList<>(List.of("--fs-root", root.toString()));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    private static final String REPORT = "grep Cpus_allowed_list /proc/self/status; head -1 /proc/self/numa_maps | cut -d' ' -f2";

    @Test
    void commandRunsOnTheCpus()
            throws Exception
    {
        Run run = exec("--cpus", "1", "--", "sh", "-c", REPORT);
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
    }

    /** Started under {@code taskset -c 1}, the command may not be widened to CPU 0: {@code chiplet topology} marks it not allowed. */
    @Test
    void cpusOutsideTheMaskTheLauncherStartedWithAreRefused()
            throws Exception
    {
        Process process = start(List.of("taskset", "-c", "1"), List.of(), "--cpus", "0", "--", "sh", "-c", REPORT);
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(directory.resolve("err-" + (started.size() - 1) + ".txt"));
        assertThat(out).isEmpty();
        assertThat(process.exitValue()).as(err).isEqualTo(125);
        assertThat(err).isEqualTo("chiplet exec: CPU 0 is not allowed for this process (allowed: 1); it is outside this process's cgroup cpuset or affinity mask\n");
        Process inside = start(List.of("taskset", "-c", "1"), List.of(), "--cpus", "1", "--", "sh", "-c", REPORT);
        assertThat(new String(inside.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
        assertThat(inside.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(inside.exitValue()).isZero();
    }

    @Test
    void membindBindsTheCommandsMemoryToTheCpusNodes()
            throws Exception
    {
        Run run = exec("--cpus", "1", "--membind", "--", "sh", "-c", REPORT);
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t1\nbind:0\n");
    }

    @Test
    void chipletsSelectTheirCpus()
            throws Exception
    {
        assertThat(exec(withSnapshot("--chiplet", "1", "--", "sh", "-c", REPORT)).out()).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
        // One NUMA node: core's memory rule binds memory only where there is a choice, as the plugins do.
        assertThat(exec(withSnapshot("--chiplet", "0,1", "--membind", "--", "sh", "-c", REPORT)).out()).isEqualTo("Cpus_allowed_list:\t0-1\ndefault\n");
    }

    /**
     * The snapshot made a machine of two nodes (CPU 0 on node 0, CPU 1 on node 1) whose process may allocate from node
     * 0 only ({@code Mems_allowed_list: 0}, as on this machine, which has node 0 alone): a container given one node of
     * a larger host. Before core read that limit, {@code exec --membind} asked the kernel for node 1 and failed.
     */
    private void twoNodesOneAllowed()
            throws IOException
    {
        String nodes = "sys/devices/system/node/";
        replace(nodes + "node0/cpulist", "0\n");
        replace(nodes + "node0/cpumap", "1\n");
        replace(nodes + "node0/distance", "10 20\n");
        Files.deleteIfExists(root.resolve(nodes + "node0/cpu1"));
        Files.createDirectories(root.resolve(nodes + "node1"));
        replace(nodes + "node1/cpulist", "1\n");
        replace(nodes + "node1/cpumap", "2\n");
        replace(nodes + "node1/distance", "20 10\n");
        replace(nodes + "node1/meminfo", "Node 1 MemTotal:        1048576 kB\nNode 1 MemFree:          524288 kB\n");
        for (String list : List.of("possible", "online", "has_cpu", "has_memory", "has_normal_memory")) {
            replace(nodes + list, "0-1\n");
        }
        assertThat(Files.readAllLines(root.resolve("proc/self/status"))).contains("Mems_allowed_list:\t0");
    }

    private void replace(String relative, String content)
            throws IOException
    {
        // the snapshot's files are read-only, as sysfs's are
        Files.deleteIfExists(root.resolve(relative));
        Files.writeString(root.resolve(relative), content);
    }

    @Test
    void membindOnAChipletOfANodeThisProcessMayNotUseBindsNoMemory()
            throws Exception
    {
        twoNodesOneAllowed();
        assertThat(TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root)).chiplets()).extracting(Chiplet::numaNode).containsExactly(0, 1);

        // one node to allocate from: nothing to choose, so no memory policy, and no request for node 1 the kernel would refuse
        Run run = exec(withSnapshot("--chiplet", "1", "--membind", "--", "sh", "-c", REPORT));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
        run = exec(withSnapshot("--policy", "wic", "--membind", "--lease-dir", directory.resolve("leases").toString(), "--", "sh", "-c", REPORT));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t0\ndefault\n");

        // and plan says the same for two workers, one on each node
        StringWriter planOut = new StringWriter();
        CommandLine plan = new CommandLine(new PlanCommand());
        plan.setOut(new PrintWriter(planOut));
        assertThat(plan.execute("--policy", "wicp-mixed", "--workers", "2", "--membind", "--fs-root", root.toString(), "--format", "json")).isZero();
        assertThat(planOut.toString().replaceAll("\\s", "")).contains("\"bindsMemory\":false").doesNotContain("memoryNode");

        // the same machine with both nodes allowed: now each worker's memory goes to its chiplet's node
        replace("proc/self/status", Files.readString(root.resolve("proc/self/status")).replace("Mems_allowed_list:\t0\n", "Mems_allowed_list:\t0-1\n"));
        planOut.getBuffer().setLength(0);
        assertThat(plan.execute("--policy", "wicp-mixed", "--workers", "2", "--membind", "--fs-root", root.toString(), "--format", "json")).isZero();
        assertThat(planOut.toString().replaceAll("\\s", "")).contains("\"bindsMemory\":true").contains("\"memoryNode\":0}").contains("\"memoryNode\":1}");
    }

    @Test
    void memoryKindIsCheckedAndOnOneNodeBindsNothing()
            throws Exception
    {
        // This snapshot has one node and no HBM: with nothing to choose, memory is left alone, and the asked-for kind
        // that cannot apply is said (the node choice per kind is MemoryBindingTest's, on machines with several nodes).
        Run run = exec(withSnapshot("--chiplet", "1", "--membind", "--memory-kind", "hbm", "--", "sh", "-c", REPORT));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t1\ndefault\n");
        assertThat(run.err()).isEqualTo("chiplet exec: --memory-kind hbm: has no effect: memory is not bound here (1 NUMA node this process may use, no choice to make)\n");

        run = exec(withSnapshot("--chiplet", "1", "--membind", "--memory-kind", "gpu", "--", "true"));
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).isEqualTo("chiplet exec: --memory-kind gpu: expected dram, hbm or cxl-pmem\n");

        run = exec("--cpus", "1", "--membind", "--memory-kind", "hbm", "--", "true");
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).startsWith("chiplet exec: --memory-kind hbm: chooses a node per chiplet");
    }

    @Test
    void everyPolicyButWimBindsTheCommandToALeasedChiplet()
            throws Exception
    {
        // One rule for a process as one worker (core's Policy.processBinding, HostDivision.processPlacement), as Spark's
        // executor mode binds an executor: a whole leased chiplet, not wic's one core or win's whole node. Each run
        // here ends before the next, so each takes chiplet 0 (CPU 0)...
        Path leaseDirectory = directory.resolve("leases");
        for (String policy : List.of("win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive")) {
            Run run = exec(withSnapshot("--policy", policy, "--lease-dir", leaseDirectory.toString(), "--", "grep", "Cpus_allowed_list", "/proc/self/status"));
            assertThat(run.out()).as(policy + ": " + run.err()).isEqualTo("Cpus_allowed_list:\t0\n");
        }
        // ...and while another process holds chiplet 0, the free one (CPU 1).
        Topology snapshot = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        try (ChipletLeases leases = ChipletLeases.open(leaseDirectory, snapshot.chiplets(), snapshot);
                ChipletLeases.LeaseSet held = leases.acquire(1)) {
            assertThat(held.chiplets()).extracting(Chiplet::id).containsExactly(0);
            for (String policy : List.of("win", "wic")) {
                Run run = exec(withSnapshot("--policy", policy, "--lease-dir", leaseDirectory.toString(), "--", "grep", "Cpus_allowed_list", "/proc/self/status"));
                assertThat(run.out()).as(policy + ": " + run.err()).isEqualTo("Cpus_allowed_list:\t1\n");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "7", "126", "255"})
    void exitStatusIsTheCommands(String status)
            throws Exception
    {
        assertThat(exec("--cpus", "0", "--", "sh", "-c", "exit " + status).status()).isEqualTo(Integer.parseInt(status));
    }

    @Test
    void commandKilledBySignalEndsTheProcessBySignal()
            throws Exception
    {
        // The JDK reports a death by signal N as 128 + N; a launcher that waited and exited with a code could not.
        assertThat(exec("--cpus", "0", "--", "sh", "-c", "kill -TERM $$").status()).isEqualTo(128 + 15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "jna"})
    void commandReplacesTheLauncherWithNothingInherited(String nativePath)
            throws Exception
    {
        // Same process id, an empty signal mask (the JVM blocks SIGQUIT in its threads), only stdin, stdout and stderr;
        // through FFM (JDK 22+) and through JNA (what JDK 17 and 21 use).
        Process process = start(List.of("-Dchiplet.native=" + nativePath), "--cpus", "1", "--", "sh", "-c", "echo $$; grep SigBlk /proc/self/status; ls /proc/$$/fd");
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo(process.pid() + "\nSigBlk:\t0000000000000000\n0\n1\n2\n");
    }

    @Test
    void wicpLocalLeasesAFreeChiplet()
            throws Exception
    {
        Run run = exec(withSnapshot("--policy", "wicp-local", "--lease-dir", directory.resolve("leases").toString(), "--", "sh", "-c", REPORT));
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t0\ndefault\n");
    }

    /**
     * {@code chiplet plan} prints what {@code chiplet exec} binds: for every policy, the command is bound as core's
     * process rule binds one process ({@code HostDivision.processPlacement}): the CPUs and memory node of the one worker
     * {@code chiplet plan --policy wicp-local --workers 1} prints, on the free chiplet (wim: nothing bound, so the command
     * keeps this JVM's own mask, as plan's wim worker binds nothing).
     */
    @ParameterizedTest
    @CsvSource({"wim, -", "win, 0", "wicp-local, 0", "wicp-mixed, 0", "wic, 0", "auto, 0", "adaptive, 0"})
    void planPrintsWhatExecBinds(String policy, String expectedCpus)
            throws Exception
    {
        StringWriter planOut = new StringWriter();
        CommandLine plan = new CommandLine(new PlanCommand());
        plan.setOut(new PrintWriter(planOut));
        String processPolicy = policy.equals("wim") ? "wim" : "wicp-local";
        assertThat(plan.execute("--policy", processPolicy, "--workers", "1", "--membind", "--fs-root", root.toString(), "--format", "json")).isZero();
        // plan's fields of its one worker (the document's only "cpus" and "memoryNode")
        Map<String, String> worker = new HashMap<>();
        try (JsonParser json = new JsonFactory().createParser(planOut.toString())) {
            while (json.nextToken() != null) {
                if (json.currentToken() == JsonToken.FIELD_NAME) {
                    String name = json.currentName();
                    json.nextToken();
                    worker.put(name, json.getText());
                }
            }
        }
        String plannedCpus = worker.getOrDefault("cpus", "-");
        // One NUMA node in this snapshot: core's rule binds no memory, and plan says so.
        assertThat(worker).doesNotContainKey("memoryNode").containsEntry("bindsMemory", "false");
        assertThat(plannedCpus).isEqualTo(expectedCpus);

        Run run = exec(withSnapshot("--policy", policy, "--membind", "--lease-dir", directory.resolve("leases").toString(), "--", "sh", "-c", REPORT));
        assertThat(run.status()).as(run.err()).isZero();
        String ownMask = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow();
        String boundMask = plannedCpus.equals("-") ? ownMask : "Cpus_allowed_list:\t" + plannedCpus;
        assertThat(run.out()).isEqualTo(boundMask + "\ndefault\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "KILL"})
    void killingTheLauncherKillsTheCommandAndFreesItsLeaseOnlyThen(String signal)
            throws Exception
    {
        Path leaseDirectory = directory.resolve("leases");
        Topology snapshot = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        Process launcher = start(List.of(), withSnapshot("--policy", "wicp-local", "--lease-dir", leaseDirectory.toString(), "--", "sleep", "600"));
        awaitCommand(launcher.pid(), "sleep");
        // The command is the launcher's process, on the leased chiplet, holding the lease's lock file and nothing else of the JVM's.
        assertThat(Files.readAllLines(Path.of("/proc/" + launcher.pid() + "/status"))).contains("Cpus_allowed_list:\t0");
        List<Path> descriptors;
        try (var entries = Files.list(Path.of("/proc/" + launcher.pid() + "/fd"))) {
            descriptors = entries.filter(fd -> Integer.parseInt(fd.getFileName().toString()) > 2).map(ExecCommandTest::linkTarget).toList();
        }
        assertThat(descriptors).containsExactly(leaseDirectory.resolve("chiplet-0.lock"));

        try (ChipletLeases leases = ChipletLeases.open(leaseDirectory, snapshot.chiplets(), snapshot)) {
            // While the command runs its chiplet is held, and the next lease goes elsewhere.
            assertThat(leases.holders(0)).isEqualTo(1);
            try (ChipletLeases.LeaseSet next = leases.acquire(1)) {
                assertThat(next.chiplets()).extracting(Chiplet::id).containsExactly(1);
                assertThat(next.anyShared()).isFalse();
            }

            new ProcessBuilder("kill", "-" + signal, Long.toString(launcher.pid())).inheritIO().start().waitFor();
            assertThat(launcher.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(launcher.exitValue()).isEqualTo(signal.equals("TERM") ? 128 + 15 : 128 + 9);
            // No process of the command is left: it was the launcher.
            assertThat(ProcessHandle.of(launcher.pid())).isEmpty();
            assertThat(leases.holders(0)).isZero();
        }
    }

    @Test
    void theLeaseIsKeptThroughASymlinkedLeaseDirectory()
            throws Exception
    {
        // /proc/self/fd names real paths; the lock file must still be recognised and kept open.
        Path real = Files.createDirectory(directory.resolve("real-leases"));
        Path link = Files.createSymbolicLink(directory.resolve("leases-link"), real);
        Topology snapshot = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        Process launcher = start(List.of(), withSnapshot("--policy", "wicp-local", "--lease-dir", link.toString(), "--", "sleep", "600"));
        awaitCommand(launcher.pid(), "sleep");
        try (ChipletLeases leases = ChipletLeases.open(real, snapshot.chiplets(), snapshot)) {
            assertThat(leases.holders(0)).isEqualTo(1);
        }
        finally {
            launcher.destroyForcibly().waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static Path linkTarget(Path link)
    {
        try {
            return Files.readSymbolicLink(link);
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits until process {@code pid} has become {@code command} (its comm), which happens at its execve. */
    private static void awaitCommand(long pid, String command)
            throws Exception
    {
        Path comm = Path.of("/proc/" + pid + "/comm");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (Files.exists(comm) && Files.readString(comm).strip().equals(command)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("process " + pid + " did not become " + command);
    }

    /**
     * {@code --chiplet} places inside core's share of this process, as the plugins do: on a snapshot of a larger machine
     * (two chiplets of 56 cores, CPUs 0-55,112-167 and 56-111,168-223) the named chiplet's CPUs this process may use,
     * and a chiplet with none of them is one clear line.
     */
    @Test
    void chipletsAreBoundWithinTheCpusThisProcessMayUse()
            throws Exception
    {
        Path large = Snapshots.unpack("cpuless-hbm-cxl", Files.createDirectory(directory.resolve("large")));
        CpuSet allowed = PinnableCpus.live().cpus();
        for (int id : List.of(0, 1)) {
            CpuSet chiplet = id == 0 ? CpuSet.parseList("0-55,112-167") : CpuSet.parseList("56-111,168-223");
            Run run = exec("--fs-root", large.toString(), "--chiplet", Integer.toString(id), "--", "grep", "Cpus_allowed_list", "/proc/self/status");
            if (chiplet.intersects(allowed)) {
                assertThat(run.status()).as(run.err()).isZero();
                assertThat(run.out()).isEqualTo("Cpus_allowed_list:\t" + chiplet.intersect(allowed).toList() + "\n");
            }
            else {
                assertThat(run.status()).isEqualTo(125);
                assertThat(run.err()).isEqualTo("chiplet exec: --chiplet " + id + ": none of its CPUs (" + chiplet.toList()
                        + ") is one this process may use (" + allowed.intersect(CpuSet.parseList("0-223")).toList() + ")\n");
            }
        }
    }

    @Test
    void disallowedCpuIsOneClearLine()
            throws Exception
    {
        int missing = PinnableCpus.live().present().last() + 6;
        Run run = exec("--cpus", Integer.toString(missing), "--", "true");
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).isEqualTo("chiplet exec: CPU " + missing + " is not allowed for this process (allowed: "
                + PinnableCpus.live().cpus().toList() + "); this machine has no such CPU\n");
    }

    @Test
    void ownFailuresExit125To127LikeEnv()
            throws Exception
    {
        Run run = exec("--cpus", "1-x", "--", "true");
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).startsWith("chiplet exec: --cpus: expected a cpulist like 0-3,8 but found \"1-x\"");

        run = exec(withSnapshot("--chiplet", "9", "--", "true"));
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).startsWith("chiplet exec: --chiplet 9: no such chiplet (this machine has chiplets 0-1)");

        run = exec("--policy", "spread", "--", "true");
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).startsWith("chiplet exec: --policy spread: unknown placement policy \"spread\"; expected one of wim, win, wicp-local");

        run = exec("--no-such-option", "--", "true");
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).startsWith("chiplet exec: Unknown option: '--no-such-option'");

        run = exec("--fs-root", "/nonexistent", "--cpus", "1", "--", "true");
        assertThat(run.status()).isEqualTo(125);
        assertThat(run.err()).startsWith("chiplet exec: --fs-root /nonexistent: ").hasLineCount(1);

        run = exec("--cpus", "1", "--", "/no/such/command");
        assertThat(run.status()).isEqualTo(127);
        assertThat(run.err()).isEqualTo("chiplet exec: cannot run /no/such/command: no such file or directory (ENOENT)\n");

        Path notExecutable = Files.writeString(directory.resolve("script.sh"), "echo hello\n");
        run = exec("--cpus", "1", "--", notExecutable.toString());
        assertThat(run.status()).isEqualTo(126);
        assertThat(run.err()).isEqualTo("chiplet exec: cannot run " + notExecutable + ": permission denied (EACCES)\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void bothBackendsBindTheCommand(String backend)
            throws Exception
    {
        Run run = exec("--backend", backend, "--cpus", "1", "--", "grep", "Cpus_allowed_list", "/proc/self/status");
        assertThat(run.out()).as(run.err()).isEqualTo("Cpus_allowed_list:\t1\n");
        assertThat(run.status()).isZero();
    }
}
