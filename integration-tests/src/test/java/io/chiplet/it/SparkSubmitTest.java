package io.chiplet.it;

import io.chiplet.it.SparkSubmit.Cell;
import io.chiplet.it.SparkSubmit.Result;
import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin in Spark as users run it: {@code spark-submit} of a pip-installed pyspark on a chosen JDK
 * ({@link Cell}, {@code -Dchiplet.it.sparkCells=4.2.1@25,...}), the shaded jar passed only with {@code --jars},
 * on the snapshot that presents this machine's two CPUs as two chiplets. Every job's answer is compared with the
 * same job without the plugin; placement is read from {@code /proc/thread-self/status} inside the tasks.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class SparkSubmitTest
{
    private static final int PARTITIONS = 8;

    static List<Cell> cells()
    {
        return Cell.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void localModePinsEveryTaskToOneChiplet(Cell cell, @TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));

        Result without = probe(cell, Files.createDirectories(temp.resolve("off")), "local[2]", Map.of(), false);
        Result with = probe(cell, Files.createDirectories(temp.resolve("on")), "local[2]", pluginConf(snapshot, temp), true);

        assertThat(with.probeLines("task")).as(with.describe()).hasSize(PARTITIONS)
                .allSatisfy(task -> assertThat(task.get("cpus")).isIn("0", "1"));
        assertThat(without.probeLines("task")).as(without.describe()).hasSize(PARTITIONS)
                .allSatisfy(task -> assertThat(task.get("cpus")).isEqualTo(liveCpus));
        assertThat(checksum(with)).isEqualTo(checksum(without));
    }

    /**
     * Separate executor JVMs, the plugin shipped only with {@code --jars} (so on the executors it is on no class
     * path until Spark fetches the user's jars): the job completes, both executors stay alive, the answer is the
     * plugin-off one, and the two executors, sharing one host in task mode, run their task threads on different
     * chiplets.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void localClusterWithJarsOnlyCompletesAndExecutorsShareTheHostWithoutSharingChiplets(Cell cell, @TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        String master = "local-cluster[2,1,1024]";

        Result without = probe(cell, Files.createDirectories(temp.resolve("off")), master, Map.of(), false);
        Result with = probe(cell, Files.createDirectories(temp.resolve("on")), master, pluginConf(snapshot, temp), true);

        assertThat(with.succeeded()).as(with.describe()).isTrue();
        assertThat(with.executorLogs()).as(with.describe()).hasSize(2).allSatisfy((path, log) -> assertThat(log)
                .doesNotContain("ClassNotFoundException")
                .doesNotContain("Exiting executor")
                .doesNotContain("Chiplet plugin disabled")
                .contains("Chiplet plugin on executor"));
        assertThat(with.probeLines("result")).singleElement().satisfies(result -> assertThat(result.get("executors")).isEqualTo("2"));
        assertThat(checksum(with)).isEqualTo(checksum(without));

        // Task mode: each executor's task threads on one chiplet, the two executors on different ones.
        Map<String, Set<String>> cpusByExecutor = cpusByExecutor(with);
        assertThat(cpusByExecutor).as(with.describe()).hasSize(2);
        assertThat(cpusByExecutor.values()).allSatisfy(cpus -> assertThat(cpus).hasSize(1).isSubsetOf("0", "1"));
        assertThat(cpusByExecutor.values().stream().flatMap(Set::stream).collect(Collectors.toSet())).containsExactlyInAnyOrder("0", "1");
        // Without the plugin: both executors, nothing pinned.
        assertThat(cpusByExecutor(without)).as(without.describe()).hasSize(2)
                .allSatisfy((executor, cpus) -> assertThat(cpus).containsExactly(liveCpus));
    }

    static Map<String, String> pluginConf(Path snapshot, Path temp)
    {
        return Map.of(
                "spark.plugins", Spark.PLUGIN,
                "spark.chiplet.fsRoot", snapshot.toString(),
                "spark.chiplet.leaseDir", temp.resolve("leases").toString());
    }

    static Result probe(Cell cell, Path directory, String master, Map<String, String> conf, boolean withPlugin)
            throws Exception
    {
        SparkSubmit submit = SparkSubmit.of(cell, directory).master(master).conf(conf);
        if (withPlugin) {
            submit.jars(ProbeJar.pluginJar());
        }
        int executors = master.startsWith("local-cluster") ? 2 : 0;
        Result result = submit.runJava(ProbeJar.get(), ProbeJar.mainClass(), Integer.toString(PARTITIONS), Integer.toString(executors));
        assertThat(result.succeeded()).as("%s, plugin %s: %s", master, withPlugin ? "on" : "off", result.describe()).isTrue();
        return result;
    }

    static String checksum(Result result)
    {
        assertThat(result.probeLines("result")).as(result.describe()).hasSize(1);
        return result.probeLines("result").getFirst().get("checksum");
    }

    static Map<String, Set<String>> cpusByExecutor(Result result)
    {
        Map<String, Set<String>> byExecutor = new TreeMap<>();
        for (Map<String, String> task : result.probeLines("task")) {
            byExecutor.computeIfAbsent(task.get("executor"), executor -> new TreeSet<>()).add(task.get("cpus"));
        }
        return byExecutor;
    }
}
