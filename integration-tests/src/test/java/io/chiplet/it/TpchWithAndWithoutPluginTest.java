package io.chiplet.it;

import io.chiplet.affinity.ChipletLeases;
import io.chiplet.spark.tpch.TpchTables;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import io.chiplet.tpch.TpchQueries;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin never changes an answer: all 22 TPC-H queries at SF 0.01, with and without it, in both modes. */
class TpchWithAndWithoutPluginTest
{
    private static final double SCALE = 0.01;
    private static Map<Integer, List<String>> without;

    @BeforeAll
    static void runWithoutPlugin()
    {
        // Without the plugin, the partition count it would choose (core's rule), so both runs do the same amount of work.
        without = runAll(false, Map.of("spark.sql.shuffle.partitions", Integer.toString(CoreSizing.live().partitions())), 0, _ -> {});
    }

    /** Task mode; executor mode binds the whole JVM and has its own test below. */
    @ParameterizedTest(name = "mode={0}")
    @ValueSource(strings = {"task"})
    void allQueriesGiveIdenticalResults(String mode)
    {
        Map<Integer, List<String>> with;
        try (LogCapture log = LogCapture.capture()) {
            // Core's rule for this machine: three per core, a multiple of the chiplets.
            with = runAll(true, Map.of("spark.chiplet.mode", mode), CoreSizing.live().partitions(), _ -> {});
            assertThat(log.problems()).isEmpty();
            assertThat(log.executorSummaries()).singleElement().asString().contains("task mode", "every chiplet of the host");
        }
        assertSameAnswers(with);
    }

    /**
     * Executor mode in local mode binds the whole test JVM (driver and executor are one process) to the chiplet it
     * leases: here CPU 0, the first of the snapshot's two one-CPU chiplets. Stopping Spark must give every thread
     * its mask back and release the lease.
     */
    @Test
    void executorModeGivesIdenticalResultsAndGivesTheProcessBack(@TempDir Path temp)
            throws Exception
    {
        Path fsRoot = Snapshots.unpack("two-cpus-two-chiplets", temp);
        Path leaseDir = temp.resolve("leases");
        Map<Integer, CpuSet> before = threadMasks();
        Map<String, String> conf = new HashMap<>();
        conf.put("spark.chiplet.mode", "executor");
        conf.put("spark.chiplet.fsRoot", fsRoot.toString());
        conf.put("spark.chiplet.leaseDir", leaseDir.toString());
        Map<Integer, List<String>> with;
        try (LogCapture log = LogCapture.capture()) {
            // The driver counts the executor's one leased chiplet of one CPU, not the host's two: three partitions.
            with = runAll(true, conf, 3, spark -> assertThat(threadMasks().values()).as("every thread while Spark runs").containsOnly(CpuSet.of(0)));
            assertThat(log.problems()).isEmpty();
            // One chiplet counted, by design: the one it leased.
            assertThat(log.executorSummaries()).singleElement().asString().contains("executor mode", "on chiplets [0] (CPUs 0)", "process bound to leased chiplet 0 (CPUs 0): exclusive");
        }
        assertSameAnswers(with);

        CpuSet original = before.values().iterator().next();
        assertThat(before.values()).as("masks before the test").containsOnly(original);
        assertThat(threadMasks().values()).as("every thread after Spark stopped").containsOnly(original);
        List<Chiplet> chiplets = List.of(new Chiplet(0, 0, 0, CpuSet.of(0), 0, ChipletBasis.L3), new Chiplet(1, 0, 0, CpuSet.of(1), 0, ChipletBasis.L3));
        Topology host = Topology.builder("test", CpuSet.range(0, 1)).chiplets(chiplets).build();
        try (ChipletLeases leases = ChipletLeases.open(leaseDir, chiplets, host)) {
            assertThat(leases.holders(0)).as("holders of the leased chiplet after Spark stopped").isZero();
        }
    }

    private static void assertSameAnswers(Map<Integer, List<String>> with)
    {
        assertThat(with.keySet()).containsExactlyElementsOf(TpchQueries.numbers());
        for (int query : TpchQueries.numbers()) {
            assertThat(with.get(query)).as("q%d", query).isNotEmpty().isEqualTo(without.get(query));
            assertThat(with.get(query)).as("q%d rows against the generator's own answer", query).hasSize(TpchQueries.expectedAtScale001(query).size());
        }
    }

    private static Map<Integer, List<String>> runAll(boolean withPlugin, Map<String, String> conf, int expectedShufflePartitions, Consumer<SparkSession> whileRunning)
    {
        SparkSession spark = Spark.start(withPlugin, conf);
        try {
            if (withPlugin) {
                // The executor reported its chiplets while the context started: the session sees the sizing.
                assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo(Integer.toString(expectedShufflePartitions));
            }
            whileRunning.accept(spark);
            TpchTables.register(spark, SCALE);
            Map<Integer, List<String>> results = new LinkedHashMap<>();
            for (int query : TpchQueries.numbers()) {
                results.put(query, spark.sql(TpchQueries.query(query, TpchQueries.Dialect.SPARK)).collectAsList().stream().map(Row::toString).toList());
            }
            return results;
        }
        finally {
            Spark.stop(spark);
        }
    }

    /** Cpus_allowed_list of every thread of this JVM, by thread id. */
    private static Map<Integer, CpuSet> threadMasks()
    {
        Map<Integer, CpuSet> masks = new LinkedHashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                ProcFiles.cpusAllowed(task.resolve("status")).ifPresent(mask -> masks.put(Integer.parseInt(task.getFileName().toString()), mask));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return masks;
    }
}
