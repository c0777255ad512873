package io.chiplet.spark.placement;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PythonWorkerPlacementTest
{
    private static final String BACKEND = "org.apache.spark.executor.CoarseGrainedExecutorBackend --executor-id 1 --cores 1";

    @Test
    void aClusterExecutorWritesTheDaemonModuleAndPointsItsOwnConfAtIt(@TempDir Path workDir)
            throws Exception
    {
        SparkConf conf = new SparkConf(false).set("spark.executorEnv.PYTHONPATH", "/user/libs");
        List<String> probed = new ArrayList<>();
        PythonWorkerPlacement python = PythonWorkerPlacement.install(conf, BACKEND, workDir, Optional.empty(),
                Map.of("PYSPARK_PYTHON", "/opt/python3", "PYTHONPATH", "/site"),
                (executable, module, directory, environment) -> {
                    probed.add(executable + " -m " + module + " in " + directory + " with PYTHONPATH=" + environment.get("PYTHONPATH"));
                    assertThat(directory.resolve(module + ".py")).exists();
                    return Optional.empty();
                });

        assertThat(python.active()).isTrue();
        assertThat(conf.get(PythonWorkerPlacement.DAEMON_MODULE)).isEqualTo("chiplet_pyspark_daemon");
        assertThat(Files.readString(workDir.resolve("chiplet_pyspark_daemon.py")))
                .contains("spark.chiplet.task.cpus", "os.sched_setaffinity", "daemon.manager()", "runpy.run_module", "--probe");
        // The probe ran what Spark will run: its Python, from the daemon's directory, with its PYTHONPATH.
        assertThat(probed).containsExactly("/opt/python3 -m chiplet_pyspark_daemon in " + workDir + " with PYTHONPATH=/user/libs:/site");
    }

    @Test
    void aModulePythonCannotLoadOrIsolatedSessionsLeaveSparksDaemon(@TempDir Path workDir)
    {
        SparkConf refuted = new SparkConf(false);
        assertThat(PythonWorkerPlacement.install(refuted, BACKEND, workDir, Optional.empty(), Map.of(),
                (executable, module, directory, environment) -> Optional.of("No module named chiplet_pyspark_daemon")).active()).isFalse();
        assertThat(refuted.contains(PythonWorkerPlacement.DAEMON_MODULE)).isFalse();

        SparkConf connect = new SparkConf(false);
        assertThat(PythonWorkerPlacement.install(connect, BACKEND, workDir, Optional.of("this application is a Spark Connect server"), Map.of(),
                (executable, module, directory, environment) -> {
                    throw new AssertionError("no probe where Spark's daemon stays anyway");
                }).active()).isFalse();
        assertThat(connect.contains(PythonWorkerPlacement.DAEMON_MODULE)).isFalse();
    }

    @Test
    void theRealProbeRefutesAModuleOutsideTheDirectoryAndAPythonThatIsNotThere(@TempDir Path workDir)
    {
        PythonDaemonProbe probe = PythonDaemonProbe.process(20);
        assertThat(probe.refute("python3", "chiplet_pyspark_daemon", workDir, Map.of())).isPresent();
        assertThat(probe.refute("/nonexistent/python", "chiplet_pyspark_daemon", workDir, Map.of()))
                .hasValueSatisfying(why -> assertThat(why).contains("cannot run /nonexistent/python"));
    }

    @Test
    void localModeAUsersDaemonOrAnUnwritableDirectoryLeaveSparksDaemon(@TempDir Path workDir)
            throws Exception
    {
        SparkConf local = new SparkConf(false);
        assertThat(install(local, "org.apache.spark.deploy.SparkSubmit --master local[2] app.py", workDir).active()).isFalse();
        assertThat(local.contains(PythonWorkerPlacement.DAEMON_MODULE)).isFalse();

        SparkConf users = new SparkConf(false).set(PythonWorkerPlacement.DAEMON_MODULE, "my_daemon");
        assertThat(install(users, BACKEND, workDir).active()).isFalse();
        assertThat(users.get(PythonWorkerPlacement.DAEMON_MODULE)).isEqualTo("my_daemon");

        SparkConf unwritable = new SparkConf(false);
        Path notADirectory = Files.writeString(workDir.resolve("file"), "x");
        assertThat(install(unwritable, BACKEND, notADirectory).active()).isFalse();
        assertThat(unwritable.contains(PythonWorkerPlacement.DAEMON_MODULE)).isFalse();
        assertThat(workDir).isDirectoryNotContaining("glob:**.py");
    }

    private static PythonWorkerPlacement install(SparkConf conf, String javaCommand, Path workDir)
    {
        return PythonWorkerPlacement.install(conf, javaCommand, workDir, Optional.empty(), Map.of(), (executable, module, directory, environment) -> Optional.empty());
    }
}
