package io.chiplet.it;

import io.chiplet.spark.tpch.TpchTables;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Snapshots;
import io.chiplet.tpch.TpchQueries;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spark.chiplet.mode=executor} on a real standalone cluster: a Master and two Workers, separate JVMs on
 * loopback, one single-core executor each, reading this machine's two CPUs as two chiplets from a snapshot. The two
 * executors must lease different chiplets, bind their whole processes to disjoint CPUs, and TPC-H queries must
 * answer exactly as plain local Spark does: by default four of them (an aggregation, joins, a filter, an outer join;
 * each executor has one CPU, and all 22 take over ten minutes on a busy two-CPU machine), all 22 with
 * {@code -Dchiplet.it.standaloneQueries=all}.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class StandaloneExecutorModeTest
{
    private static final double SCALE = 0.01;
    private static final List<Integer> QUERIES = "all".equals(System.getProperty("chiplet.it.standaloneQueries"))
            ? TpchQueries.numbers()
            : List.of(1, 3, 6, 13);

    @TempDir
    static Path temp;

    private static StandaloneCluster cluster;
    private static Path fsRoot;

    @BeforeAll
    static void startCluster()
            throws Exception
    {
        fsRoot = Snapshots.unpack("two-cpus-two-chiplets", Files.createDirectories(temp.resolve("snapshot")));
        cluster = StandaloneCluster.start(temp, 2, 1, "1g");
    }

    @AfterAll
    static void stopCluster()
            throws InterruptedException
    {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void executorsLeaseDistinctChipletsBindDisjointCpusAndAnswerTpchCorrectly()
            throws Exception
    {
        Path leaseDir = temp.resolve("leases");
        Map<Integer, List<String>> onCluster;
        Map<Integer, Long> holders;
        LogCapture driverLog = LogCapture.capture(org.apache.logging.log4j.Level.INFO);
        SparkSession spark = executorMode("chiplet-it-standalone", leaseDir)
                // Every executor must bind here; measuring would leave a drawn control executor unbound (MeasureInPlace tests cover that).
                .config("spark.chiplet.measure.enabled", "false")
                .getOrCreate();
        // The cluster is shared by this class's tests: only this application's executor logs count.
        String application = spark.sparkContext().applicationId();
        try {
            awaitExecutors(spark, 2);
            // Executors register with the driver before their plugins start: wait for both leases.
            holders = awaitLeases(leaseDir, 2);
            assertThat(holders).as("owner of each chiplet's lease (/proc/locks); executor logs:%n%s", cluster.tails()).containsOnlyKeys(0, 1);
            long first = holders.get(0);
            long second = holders.get(1);
            assertThat(first).isNotEqualTo(second);
            for (long pid : List.of(first, second)) {
                assertThat(commandLine(pid)).as("process %d holding a lease", pid).contains("org.apache.spark.executor.CoarseGrainedExecutorBackend");
            }
            // Every thread of each executor, not just its main thread, runs only on its own chiplet's CPU. An executor
            // takes its lease before it binds its threads: wait for the binding, not just the lease.
            assertThat(awaitBound(first, CpuSet.of(0))).as("threads of executor %d", first).containsOnly(CpuSet.of(0));
            assertThat(awaitBound(second, CpuSet.of(1))).as("threads of executor %d", second).containsOnly(CpuSet.of(1));
            assertThat(CpuSet.of(0).intersects(CpuSet.of(1))).isFalse();

            TpchTables.register(spark, SCALE);
            onCluster = runAll(spark);
            // The binding still holds after the work (threads the executors started meanwhile inherited it).
            assertThat(threadMasks(first)).containsOnly(CpuSet.of(0));
            assertThat(threadMasks(second)).containsOnly(CpuSet.of(1));
        }
        finally {
            Spark.stop(spark);
            driverLog.close();
        }
        // Each executor's placement, whole, in the driver's log: the Worker stops copying an executor's output as it
        // kills it, before the executor's own summary line (logged as Spark stops it) is written (issue #34).
        assertThat(driverLog.messages().stream().filter(line -> line.startsWith("Chiplet placement on executor ")).toList()).as("driver's lines %s", driverLog.messages())
                .hasSize(2).allSatisfy(line -> assertThat(line)
                        .matches("Chiplet placement on executor [01] \\(its last counts\\): [1-9]\\d* tasks \\(0 unplaced, 0 failed\\), per chiplet \\[[01]:[1-9]\\d*]"));
        assertThat(cluster.executorLogs().stream().filter(log -> log.toString().contains("/" + application + "/")).toList()).hasSize(2).allSatisfy(log -> assertThat(Files.readString(log))
                .containsPattern("this executor leased chiplet [01] \\(CPUs [01]\\): exclusive")
                .doesNotContain("Chiplet plugin disabled"));

        // Few shuffle partitions, as the plugin would choose (core's rule): Spark's 200 make tiny tasks that only add time.
        SparkSession local = Spark.start(false, Map.of("spark.sql.shuffle.partitions", Integer.toString(CoreSizing.live().partitions())));
        Map<Integer, List<String>> plain;
        try {
            TpchTables.register(local, SCALE);
            plain = runAll(local);
        }
        finally {
            Spark.stop(local);
        }
        assertThat(onCluster.keySet()).containsExactlyElementsOf(QUERIES);
        for (int query : QUERIES) {
            assertThat(onCluster.get(query)).as("q%d", query).isNotEmpty().isEqualTo(plain.get(query));
            assertThat(onCluster.get(query)).as("q%d rows against the generator's own answer", query).hasSize(TpchQueries.expectedAtScale001(query).size());
        }
        // The executors are gone with the application, and with them their leases.
        awaitNoLeases(leaseDir);
    }

    /**
     * Measured per executor: the driver draws the first executor placed and, with a seed whose draw makes the second
     * control at a share of one half (core's draw, looked up here), the second leases and binds nothing: its threads
     * keep the whole machine's CPUs. With one executor per arm the report gives no figure.
     */
    @Test
    void measuredPerExecutorTheControlExecutorLeasesAndBindsNothing()
            throws Exception
    {
        long seed = java.util.stream.LongStream.range(0, 100).filter(candidate -> new io.chiplet.measure.ArmAssignment(candidate).ofProcess(1, 0.5)
                == io.chiplet.measure.Arm.CONTROL).findFirst().orElseThrow();
        Path leaseDir = temp.resolve("measured-leases");
        Path reports = temp.resolve("measured-reports");
        String applicationId;
        SparkSession spark = executorMode("chiplet-it-executor-measured", leaseDir)
                .config("spark.chiplet.measure.controlShare", "0.5")
                .config("spark.chiplet.measure.seed", Long.toString(seed))
                .config("spark.chiplet.measure.reportDir", reports.toString())
                .getOrCreate();
        try {
            applicationId = spark.sparkContext().applicationId();
            awaitExecutors(spark, 2);
            assertThat(spark.range(0, 20_000, 1, 20).selectExpr("sum(id)").first().getLong(0)).isEqualTo(199_990_000L);
            List<Long> executors = executorPids(applicationId);
            assertThat(executors).as("executor processes of %s", applicationId).hasSize(2);
            Map<Integer, Long> holders = ownerSlotHolders(leaseDir);
            assertThat(holders).as("one lease, the placed executor's; logs:%n%s", cluster.tails()).hasSize(1);
            long placed = holders.values().iterator().next();
            long control = executors.stream().filter(pid -> pid != placed).findFirst().orElseThrow();
            CpuSet leased = CpuSet.of(holders.keySet().iterator().next());
            assertThat(awaitBound(placed, leased)).as("threads of the placed executor %d", placed).containsOnly(leased);
            // Unbound: its threads keep the mask its Worker started it with, both chiplets' CPUs (and any others the machine has).
            assertThat(threadMasks(control)).as("threads of the control executor %d", control).isNotEmpty()
                    .allSatisfy(mask -> assertThat(mask.containsAll(CpuSet.of(0, 1))).as("mask %s", mask).isTrue());
        }
        finally {
            Spark.stop(spark);
        }
        Path json = reports.resolve("chiplet-measure-" + applicationId + ".json");
        assertThat(json).content()
                .contains("\"design\" : \"per executor", "2 executors in executor mode: 1 placed, 1 control.", "\"verdict\" : \"not enough evidence yet\"");
        assertThat(cluster.executorLogs()).anySatisfy(log -> assertThat(Files.readString(log)).contains("control executor: nothing leased or bound"));
    }

    /** The pids of the executor processes of one application, from their command lines. */
    /**
     * An application on the shared cluster in executor mode: two executors of one core each, on loopback, the plugin
     * reading the two-chiplet snapshot and leasing in {@code leaseDir}; it waits for both executors before it starts.
     */
    private static SparkSession.Builder executorMode(String application, Path leaseDir)
    {
        return SparkSession.builder()
                .master(cluster.masterUrl())
                .appName(application)
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.executor.memory", "512m")
                .config("spark.executor.cores", "1")
                .config("spark.cores.max", "2")
                .config("spark.executor.extraJavaOptions", cluster.jvmOptions())
                .config("spark.executor.extraClassPath", StandaloneCluster.executorClassPath())
                .config("spark.scheduler.minRegisteredResourcesRatio", "1.0")
                .config("spark.scheduler.maxRegisteredResourcesWaitingTime", "120s")
                .config("spark.plugins", Spark.PLUGIN)
                .config("spark.chiplet.mode", "executor")
                .config("spark.chiplet.fsRoot", fsRoot.toString())
                .config("spark.chiplet.leaseDir", leaseDir.toString());
    }

    private static List<Long> executorPids(String applicationId)
            throws IOException
    {
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            return processes.filter(path -> path.getFileName().toString().matches("\\d+")).filter(path -> {
                try {
                    String command = Files.readString(path.resolve("cmdline")).replace('\0', ' ');
                    return command.contains("CoarseGrainedExecutorBackend") && command.contains(applicationId);
                }
                catch (IOException | UncheckedIOException e) {
                    return false;
                }
            }).map(path -> Long.parseLong(path.getFileName().toString())).toList();
        }
    }

    private static Map<Integer, List<String>> runAll(SparkSession spark)
    {
        Map<Integer, List<String>> results = new LinkedHashMap<>();
        for (int query : QUERIES) {
            results.put(query, spark.sql(TpchQueries.query(query, TpchQueries.Dialect.SPARK)).collectAsList().stream().map(Row::toString).toList());
        }
        return results;
    }

    private static void awaitExecutors(SparkSession spark, int count)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        // The driver is listed too.
        while (spark.sparkContext().statusTracker().getExecutorInfos().length < count + 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("fewer than " + count + " executors registered; logs:\n" + cluster.tails());
            }
            Thread.sleep(200);
        }
    }

    private static Map<Integer, Long> awaitLeases(Path leaseDir, int count)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<Integer, Long> holders = ownerSlotHolders(leaseDir);
        while (holders.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(200);
            holders = ownerSlotHolders(leaseDir);
        }
        return holders;
    }

    /** The thread masks of executor {@code pid} once all are {@code cpus}, or as they are after 60 s. */
    private static List<CpuSet> awaitBound(long pid, CpuSet cpus)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<CpuSet> masks = threadMasks(pid);
        while (!masks.stream().allMatch(cpus::equals) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            masks = threadMasks(pid);
        }
        return masks;
    }

    private static void awaitNoLeases(Path leaseDir)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!ownerSlotHolders(leaseDir).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("chiplet leases still held after the application ended: " + ownerSlotHolders(leaseDir));
            }
            Thread.sleep(200);
        }
    }

    /**
     * Chiplet id to the pid holding its owner slot (byte 0 of {@code chiplet-<id>.lock}), from the kernel's own
     * table of record locks: what the executors hold, independent of anything they report.
     */
    private static Map<Integer, Long> ownerSlotHolders(Path leaseDir)
    {
        Map<Long, Integer> chipletOfInode = new HashMap<>();
        try (Stream<Path> files = Files.list(leaseDir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.startsWith("chiplet-") && name.endsWith(".lock")) {
                    chipletOfInode.put((Long) Files.getAttribute(file, "unix:ino"), Integer.parseInt(name.substring("chiplet-".length(), name.length() - ".lock".length())));
                }
            }
            Map<Integer, Long> holders = new TreeMap<>();
            for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
                // "1: POSIX  ADVISORY  WRITE 4242 fe:00:1234567 0 0"; blocked waiters are "1: -> POSIX ...".
                String[] fields = line.trim().split("\\s+");
                if (fields.length < 8 || !fields[1].equals("POSIX") || !fields[6].equals("0") || !fields[7].equals("0")) {
                    continue;
                }
                long inode = Long.parseLong(fields[5].substring(fields[5].lastIndexOf(':') + 1));
                Integer chiplet = chipletOfInode.get(inode);
                if (chiplet != null) {
                    holders.put(chiplet, Long.parseLong(fields[4]));
                }
            }
            return holders;
        }
        catch (NoSuchFileException e) {
            return Map.of();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String commandLine(long pid)
            throws IOException
    {
        return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
    }

    /** Cpus_allowed_list of every thread of process {@code pid}. */
    private static List<CpuSet> threadMasks(long pid)
            throws IOException
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(task -> ProcFiles.cpusAllowed(task.resolve("status"))).flatMap(Optional::stream).toList();
        }
    }
}
