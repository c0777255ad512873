package io.chiplet.trino;

import io.chiplet.affinity.ThreadId;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Snapshots;
import io.chiplet.tpch.TpchQueries;
import io.chiplet.trino.placement.QueryThreads;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A coordinator and two workers in this JVM with the TPC-H catalog and a chiplet catalog whose topology is a
 * snapshot presenting this machine's two CPUs as two chiplets. All three nodes share the JVM's one placement agent
 * (see {@link io.chiplet.trino.placement.PlacementAgents}), so every node's {@code placement} rows list the same
 * threads: the JVM's. A second runner without the plugin is the reference for the TPC-H results.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChipletClusterTest
{
    private static final Map<String, String> TPCH = Map.of("tpch.column-naming", "STANDARD", "tpch.double-type-mapping", "DECIMAL");

    private final LogCapture log = LogCapture.of("io.chiplet.trino");
    private Path temp;
    private DistributedQueryRunner cluster;
    private DistributedQueryRunner plain;

    @BeforeAll
    void startClusters()
            throws Exception
    {
        temp = Files.createTempDirectory("chiplet-cluster-test");
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        cluster = runner();
        cluster.installPlugin(new ChipletTrinoPlugin());
        cluster.createCatalog("chiplet", "chiplet", Map.of(
                "chiplet.fs-root", snapshot.toString(),
                "chiplet.lease-dir", temp.resolve("leases").toString(),
                "chiplet.rescan-interval", "100ms",
                // These tests check that every query thread is placed: no control windows.
                "chiplet.measure.enabled", "false"));
        plain = runner();
    }

    private static DistributedQueryRunner runner()
            throws Exception
    {
        Session session = testSessionBuilder().setCatalog("tpch").setSchema("tiny").build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session).setWorkerCount(2).build();
        runner.installPlugin(new TpchPlugin());
        runner.createCatalog("tpch", "tpch", TPCH);
        return runner;
    }

    @AfterAll
    void stopClusters()
            throws IOException
    {
        if (cluster != null) {
            cluster.close();
            // Closing the catalogs released the agent, which gave every thread it pinned its mask back: the reference
            // cluster's runner threads (pinned too, being threads of this JVM) are unpinned again.
            assertThat(queryThreadMasks()).isNotEmpty().allSatisfy((tid, mask) -> assertThat(mask).as("thread " + tid).isEqualTo(CpuSet.of(0, 1)));
        }
        if (plain != null) {
            plain.close();
        }
        log.close();
        if (temp != null) {
            try (var files = Files.walk(temp)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void everyNodeReportsTheSnapshotsTwoChiplets()
    {
        MaterializedResult topology = cluster.execute("SELECT node, chiplet, cpus, numa_node, l3_bytes, core_kind FROM chiplet.runtime.topology ORDER BY node, chiplet");
        Map<String, List<String>> cpusByNode = new TreeMap<>();
        for (MaterializedRow row : topology.getMaterializedRows()) {
            cpusByNode.computeIfAbsent((String) row.getField(0), _ -> new ArrayList<>()).add(row.getField(1) + ":" + row.getField(2));
            assertThat((Long) row.getField(4)).isPositive();
        }
        assertThat(cpusByNode).hasSize(cluster.getNodeCount());
        assertThat(cpusByNode.values()).allSatisfy(chiplets -> assertThat(chiplets).containsExactly("0:0", "1:1"));

        MaterializedResult status = cluster.execute("SELECT node, placing, policy, problem FROM chiplet.runtime.status");
        assertThat(status.getRowCount()).isEqualTo(cluster.getNodeCount());
        assertThat(status.getMaterializedRows()).allSatisfy(row -> {
            assertThat(row.getField(1)).isEqualTo(true);
            assertThat(row.getField(2)).isEqualTo("auto");
            assertThat(row.getField(3)).isNull();
        });
    }

    @Test
    void queryThreadMasksMatchThePlacementTableAndUseBothChiplets()
            throws Exception
    {
        ExecutorService background = Executors.newSingleThreadExecutor();
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> load = background.submit(() -> {
            while (!stop.get()) {
                cluster.execute("SELECT l_returnflag, count(*), sum(l_extendedprice) FROM lineitem GROUP BY l_returnflag");
            }
        });
        try {
            Optional<String> mismatch = Optional.of("not checked");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (mismatch.isPresent() && System.nanoTime() < deadline) {
                mismatch = compareWithKernel();
                if (mismatch.isPresent()) {
                    Thread.sleep(200);
                }
            }
            assertThat(mismatch).as("placement table against /proc/self/task/<tid>/status").isEmpty();
        }
        finally {
            stop.set(true);
            load.get(60, TimeUnit.SECONDS);
            background.shutdown();
        }
    }

    /**
     * The kubelet narrowing a container's cpuset after start, done as it looks to the process: {@code taskset -a -p}
     * narrows every thread of this JVM to CPU 1 (chiplet 1 of the snapshot). Within a rescan the agent notices, logs
     * the old and new sets once, counts the change in {@code runtime.status} and pins every query thread onto CPU 1 —
     * checked against {@code /proc/self/task/<tid>/status}; widened again, it places on both chiplets again.
     */
    @Test
    void narrowedFromOutsideTheQueryThreadsFollowTheNewCpus()
            throws Exception
    {
        assertThat(awaitKernelMatch()).as("settled before the change").isEmpty();
        long before = cpusetChanges();
        long pid = ProcessHandle.current().pid();
        taskset("1", pid);
        try {
            long started = System.nanoTime();
            Optional<String> problem = Optional.of("not checked");
            long deadline = started + TimeUnit.SECONDS.toNanos(60);
            while (problem.isPresent() && System.nanoTime() < deadline) {
                cluster.execute("SELECT count(*) FROM nation");
                problem = narrowedProblem(before);
                if (problem.isPresent()) {
                    Thread.sleep(50);
                }
            }
            assertThat(problem).as("query threads on CPU 1 only, change counted").isEmpty();
            System.err.println("chiplet cpuset follow: every query thread on CPU 1 " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
                    + " ms after taskset, rescan interval 100 ms");
            assertThat(log.messages()).filteredOn(message -> message.contains("allowed CPUs changed from 0-1 to 1 ")).hasSize(1);
        }
        finally {
            taskset("0-1", pid);
        }
        assertThat(awaitKernelMatch()).as("both chiplets again once widened").isEmpty();
        assertThat(cpusetChanges()).isEqualTo(before + 2);
    }

    private Optional<String> awaitKernelMatch()
            throws InterruptedException
    {
        Optional<String> mismatch = Optional.of("not checked");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (mismatch.isPresent() && System.nanoTime() < deadline) {
            cluster.execute("SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag");
            mismatch = compareWithKernel();
            if (mismatch.isPresent()) {
                Thread.sleep(100);
            }
        }
        return mismatch;
    }

    private long cpusetChanges()
    {
        return (Long) cluster.execute("SELECT max(cpuset_changes) FROM chiplet.runtime.status").getOnlyValue();
    }

    /** Empty once the change is counted, every node places on CPU 1 and every query thread's kernel mask is CPU 1. */
    private Optional<String> narrowedProblem(long before)
    {
        MaterializedResult status = cluster.execute("SELECT placing_on_cpus, cpuset_changes FROM chiplet.runtime.status");
        for (MaterializedRow row : status.getMaterializedRows()) {
            if (!"1".equals(row.getField(0)) || (Long) row.getField(1) <= before) {
                return Optional.of("status says placing on " + row.getField(0) + " after " + row.getField(1) + " changes");
            }
        }
        MaterializedResult placement = cluster.execute("SELECT DISTINCT cpus FROM chiplet.runtime.placement");
        if (!placement.getOnlyColumnAsSet().equals(Set.of("1"))) {
            return Optional.of("placement table has masks " + placement.getOnlyColumnAsSet());
        }
        for (Map.Entry<Integer, CpuSet> thread : queryThreadMasks().entrySet()) {
            if (!thread.getValue().equals(CpuSet.of(1))) {
                return Optional.of("query thread " + thread.getKey() + " has mask " + thread.getValue());
            }
        }
        return Optional.empty();
    }

    private static void taskset(String cpus, long pid)
            throws Exception
    {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)).redirectErrorStream(true).start();
        String output = new String(taskset.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(taskset.waitFor(30, TimeUnit.SECONDS) && taskset.exitValue() == 0).as("taskset: " + output).isTrue();
    }

    /** Empty when every query thread of the JVM is in the placement table with the mask the kernel reports. */
    private Optional<String> compareWithKernel()
    {
        MaterializedResult placement = cluster.execute("SELECT node, thread_name, tid, chiplet, cpus FROM chiplet.runtime.placement");
        Map<Integer, String> cpusByTid = new HashMap<>();
        Set<Long> chiplets = new java.util.HashSet<>();
        Set<String> nodes = new java.util.HashSet<>();
        for (MaterializedRow row : placement.getMaterializedRows()) {
            int tid = Math.toIntExact((Long) row.getField(2));
            String cpus = (String) row.getField(4);
            if (cpusByTid.containsKey(tid) && !cpusByTid.get(tid).equals(cpus)) {
                return Optional.of("nodes disagree on thread " + tid + " (the agent moved it between their answers)");
            }
            cpusByTid.put(tid, cpus);
            chiplets.add((Long) row.getField(3));
            nodes.add((String) row.getField(0));
        }
        if (nodes.size() != cluster.getNodeCount()) {
            return Optional.of("placement rows from " + nodes.size() + " of " + cluster.getNodeCount() + " nodes");
        }
        if (!chiplets.equals(Set.of(0L, 1L))) {
            return Optional.of("threads on chiplets " + chiplets + ", expected both 0 and 1");
        }
        int splitRunners = 0;
        CpuSet used = CpuSet.empty();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            Optional<String> comm = comm(tid);
            if (comm.isEmpty() || !QueryThreads.isQueryThread(comm.get())) {
                continue;
            }
            if (comm.get().startsWith("SplitRunner-")) {
                splitRunners++;
            }
            if (!cpusByTid.containsKey(tid)) {
                return Optional.of("query thread " + tid + " (" + comm.get() + ") is not in the placement table");
            }
            Optional<CpuSet> kernel = ThreadId.cpusAllowed(tid);
            if (kernel.isPresent()) {
                if (!kernel.get().equals(CpuSet.parseList(cpusByTid.get(tid)))) {
                    return Optional.of("thread " + tid + " (" + comm.get() + ") has mask " + kernel.get() + ", the table says " + cpusByTid.get(tid));
                }
                used = used.union(kernel.get());
            }
        }
        if (splitRunners == 0) {
            return Optional.of("no SplitRunner-* thread seen");
        }
        if (!used.equals(CpuSet.of(0, 1))) {
            return Optional.of("query threads' masks cover CPUs " + used + ", expected both chiplets' CPUs 0-1");
        }
        return Optional.empty();
    }

    private static Map<Integer, CpuSet> queryThreadMasks()
    {
        Map<Integer, CpuSet> masks = new TreeMap<>();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            if (comm(tid).filter(QueryThreads::isQueryThread).isPresent()) {
                ThreadId.cpusAllowed(tid).ifPresent(mask -> masks.put(tid, mask));
            }
        }
        return masks;
    }

    private static Optional<String> comm(int tid)
    {
        try {
            return Optional.of(Files.readString(Path.of("/proc/self/task/" + tid + "/comm")).strip());
        }
        catch (NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void tpchResultsAreIdenticalWithAndWithoutThePlugin()
    {
        for (int query = 1; query <= TpchQueries.COUNT; query++) {
            String sql = TpchQueries.query(query, TpchQueries.Dialect.TRINO);
            MaterializedResult with = cluster.execute(sql);
            MaterializedResult without = plain.execute(sql);
            assertThat(with.getRowCount()).as("q%d rows", query).isPositive();
            if (sql.toUpperCase(java.util.Locale.ROOT).contains("ORDER BY")) {
                assertThat(with.getMaterializedRows()).as("q%d", query).isEqualTo(without.getMaterializedRows());
            }
            else {
                assertThat(with.getMaterializedRows()).as("q%d", query).containsExactlyInAnyOrderElementsOf(without.getMaterializedRows());
            }
        }
    }

    @Test
    void badSettingsLeaveQueriesRunningWithOneWarningPerNode()
    {
        cluster.createCatalog("chiplet_bad", "chiplet", Map.of("chiplet.policy", "fastest"));
        String expected = "chiplet.policy=fastest is not usable: expected one of wim, win, wicp-local, wicp-mixed, wic, auto, adaptive";

        MaterializedResult status = cluster.execute("SELECT node, placing, problem FROM chiplet_bad.runtime.status");
        assertThat(status.getRowCount()).isEqualTo(cluster.getNodeCount());
        assertThat(status.getMaterializedRows()).allSatisfy(row -> {
            assertThat(row.getField(1)).isEqualTo(false);
            assertThat(row.getField(2)).isEqualTo(expected);
        });
        // The rest of the cluster is untouched: TPC-H runs, and the good catalog still places threads.
        assertThat(cluster.execute("SELECT count(*) FROM orders").getOnlyValue()).isEqualTo(15000L);
        // Without usable settings the catalog cannot tell which topology to read (fs-root, virtual chiplets): none.
        assertThat(cluster.execute("SELECT count(*) FROM chiplet_bad.runtime.topology").getOnlyValue()).isEqualTo(0L);
        assertThat(cluster.execute("SELECT count(*) FROM chiplet.runtime.status WHERE placing").getOnlyValue()).isEqualTo((long) cluster.getNodeCount());

        List<String> warnings = log.warnings().stream().filter(message -> message.contains("chiplet_bad")).toList();
        Map<String, Long> perNode = warnings.stream().collect(Collectors.groupingBy(message -> message.replaceFirst(".* on node (\\S+):.*", "$1"), Collectors.counting()));
        assertThat(perNode).hasSize(cluster.getNodeCount());
        assertThat(perNode.values()).containsOnly(1L);
        assertThat(warnings).allSatisfy(message -> assertThat(message).endsWith("no thread placement, Trino runs as without it: " + expected));
    }
}
