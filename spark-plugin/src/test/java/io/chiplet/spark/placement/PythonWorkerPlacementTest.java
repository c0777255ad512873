package io.chiplet.spark.placement;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PythonWorkerPlacementTest
{
    private static final String BACKEND = "org.apache.spark.executor.CoarseGrainedExecutorBackend --executor-id 1 --cores 1";

    @Test
    void aClusterExecutorWritesTheDaemonModuleAndPointsItsOwnConfAtIt(@TempDir Path workDir)
            throws Exception
    {
        SparkConf conf = new SparkConf(false);
        PythonWorkerPlacement python = PythonWorkerPlacement.install(conf, BACKEND, workDir);

        assertThat(python.active()).isTrue();
        assertThat(conf.get(PythonWorkerPlacement.DAEMON_MODULE)).isEqualTo("chiplet_pyspark_daemon");
        assertThat(Files.readString(workDir.resolve("chiplet_pyspark_daemon.py")))
                .contains("spark.chiplet.task.cpus", "os.sched_setaffinity", "daemon.manager()", "runpy.run_module");
    }

    @Test
    void localModeAUsersDaemonOrAnUnwritableDirectoryLeaveSparksDaemon(@TempDir Path workDir)
            throws Exception
    {
        SparkConf local = new SparkConf(false);
        assertThat(PythonWorkerPlacement.install(local, "org.apache.spark.deploy.SparkSubmit --master local[2] app.py", workDir).active()).isFalse();
        assertThat(local.contains(PythonWorkerPlacement.DAEMON_MODULE)).isFalse();

        SparkConf users = new SparkConf(false).set(PythonWorkerPlacement.DAEMON_MODULE, "my_daemon");
        assertThat(PythonWorkerPlacement.install(users, BACKEND, workDir).active()).isFalse();
        assertThat(users.get(PythonWorkerPlacement.DAEMON_MODULE)).isEqualTo("my_daemon");

        SparkConf unwritable = new SparkConf(false);
        Path notADirectory = Files.writeString(workDir.resolve("file"), "x");
        assertThat(PythonWorkerPlacement.install(unwritable, BACKEND, notADirectory).active()).isFalse();
        assertThat(unwritable.contains(PythonWorkerPlacement.DAEMON_MODULE)).isFalse();
        assertThat(workDir).isDirectoryNotContaining("glob:**.py");
    }
}
