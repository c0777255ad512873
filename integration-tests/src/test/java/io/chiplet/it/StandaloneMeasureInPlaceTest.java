package io.chiplet.it;

import io.chiplet.it.MeasureInPlaceTest.SqlRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@link MeasureInPlaceTest}'s real-machine runs on Spark Standalone, as users run it: the pip-installed pyspark's
 * Master and one Worker of one core ({@link PipStandalone}, started once and shared by both tests), the PySpark SQL
 * job submitted to it with the plugin in {@code --jars}, task mode on the two-chiplet snapshot, the default design
 * (switchback windows per host). With busy processes pinned on the placed CPU, the machine's slowdown is found with
 * the right sign and the guard stops placement; with nothing beside it, the small host gets a figure, placement goes
 * on, and the plugin's own CPU in the executor agrees with the kernel's reading of its threads.
 */
class StandaloneMeasureInPlaceTest
{
    private static final Map<String, String> ONE_EXECUTOR = Map.of("spark.cores.max", "1", "spark.executor.cores", "1", "spark.executor.memory", "512m");

    @TempDir
    static Path shared;
    private static PipStandalone cluster;

    @BeforeAll
    static void startCluster()
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        SparkSubmit submit = submit();
        cluster = PipStandalone.startMaster(submit.home(), submit.javaHome());
        cluster.startWorker("worker-0", 1, Map.of());
    }

    @AfterAll
    static void stopCluster()
            throws InterruptedException
    {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The runs share the cluster's SPARK_HOME (its Workers log the executors under its {@code work/}); they run one after the other. */
    private static SparkSubmit submit()
            throws java.io.IOException
    {
        return SparkSubmit.of(SparkSubmit.Cell.configured().getFirst(), Files.createDirectories(shared.resolve("run")));
    }

    @Test
    void aBusyProcessOnThePlacedCpuIsFoundAsASlowdownAndTheGuardStopsPlacement(@TempDir Path temp)
            throws Exception
    {
        Path reports = temp.resolve("reports");
        List<Process> busy = new java.util.ArrayList<>();
        SqlRun run;
        try {
            for (int i = 0; i < MeasureInPlaceTest.BUSY_PROCESSES; i++) {
                busy.add(new ProcessBuilder("taskset", "-c", "0", "sh", "-c", "while :; do :; done").redirectErrorStream(true).start());
            }
            // Until the guard stops placement (and 5 queries more), at most 6 minutes: the Master's and Worker's JVMs
            // beside the job make the slowdown smaller than in local-cluster (0.78x [0.65, 0.94] after 4 minutes, the
            // guard still placing at its second look, in one run), so the guard needs more looks.
            run = MeasureInPlaceTest.runSql(temp, reports, "360", "until-stopped", submit(), cluster.masterUrl(), ONE_EXECUTOR, running -> cluster.executors());
        }
        finally {
            for (Process process : busy) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
        MeasureInPlaceTest.assertFoundAsSlowdownAndStopped(run, reports, "Standalone");
    }

    @Test
    void withNothingBesideItASmallHostGetsAFigureAndPlacementGoesOn(@TempDir Path temp)
            throws Exception
    {
        Path reports = temp.resolve("reports");
        SqlRun run = MeasureInPlaceTest.runSql(temp, reports, "60", "fixed", submit(), cluster.masterUrl(), ONE_EXECUTOR, running -> cluster.executors());
        MeasureInPlaceTest.assertMeasuredAndPlacing(run, reports, temp, "Standalone");
    }
}
