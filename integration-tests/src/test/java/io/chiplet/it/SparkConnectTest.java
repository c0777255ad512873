package io.chiplet.it;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spark Connect server (the pip-installed pyspark's {@code SparkConnectServer}, as
 * {@code sbin/start-connect-server.sh} runs it) with the plugin, on a Standalone cluster of two one-core Workers,
 * and a {@code pyspark[connect]} client running a Python UDF and a pandas UDF. Connect runs each session's Python
 * daemon in a directory of that session, where no module of ours can be: the executors keep Spark's own daemon
 * (the job used to fail with {@code No module named chiplet_pyspark_daemon}). Checks: the results equal the same
 * functions run without Spark, no task failed, every Python worker runs within one chiplet of the snapshot that maps
 * this machine's two CPUs as two chiplets, and the Connect session's shuffle partitions are core's figure.
 */
class SparkConnectTest
{
    private static final SparkSubmit.Cell CELL = new SparkSubmit.Cell("4.2.1", 25);

    @Test
    void pythonAndPandasUdfsRunAndTheSessionIsSized(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Path connectSite = PipSpark.connectClient(CELL.pyspark());
        Path client = temp.resolve("connect_client.py");
        try (var in = SparkConnectTest.class.getResourceAsStream("/connect_client.py")) {
            Files.copy(in, client);
        }
        Path run = Files.createDirectories(temp.resolve("server"));
        SparkSubmit submit = SparkSubmit.of(CELL, run);
        int port = freePort();
        Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, temp));
        conf.putAll(Map.of("spark.cores.max", "2", "spark.executor.cores", "1", "spark.executor.memory", "512m",
                "spark.connect.grpc.binding.address", "127.0.0.1", "spark.connect.grpc.binding.port", Integer.toString(port),
                // The server's Python workers need pandas and pyarrow for the pandas UDF: the client's environment.
                "spark.executorEnv.PYTHONPATH", connectSite.toString()));
        try (PipStandalone cluster = PipStandalone.startMaster(submit.home(), submit.javaHome())) {
            cluster.startWorker("worker-0", 1, Map.of());
            cluster.startWorker("worker-1", 1, Map.of());
            try (SparkSubmit.Running server = submit.master(cluster.masterUrl()).conf(conf).jars(ProbeJar.pluginJar())
                    .timeout(Duration.ofMinutes(5)).startJava(Path.of("spark-internal"), "org.apache.spark.sql.connect.service.SparkConnectServer")) {
                Path serverLog = run.resolve("driver.err");
                awaitLog(server, serverLog, "Spark Connect server started");

                ProcessBuilder clientProcess = new ProcessBuilder(System.getProperty("chiplet.it.python", "python3"), client.toString(), "sc://127.0.0.1:" + port)
                        .redirectErrorStream(true).redirectOutput(temp.resolve("client.out").toFile());
                clientProcess.environment().keySet().removeIf(key -> key.startsWith("SPARK_") || key.startsWith("PYSPARK_"));
                clientProcess.environment().put("PYTHONPATH", connectSite.toString());
                Process python = clientProcess.start();
                boolean ended = python.waitFor(120, TimeUnit.SECONDS);
                if (!ended) {
                    python.destroyForcibly();
                }
                String output = Files.readString(temp.resolve("client.out"));
                assertThat(ended && python.exitValue() == 0).as("client:\n%s\nserver:\n%s", output, PipStandalone.tail(serverLog)).isTrue();
                output.lines().filter(line -> line.startsWith("CHIPLET-PROBE")).forEach(System.err::println);

                Map<String, String> results = fields(output, "results").getFirst();
                assertThat(results.get("rows")).isEqualTo("400");
                assertThat(results.get("squares")).isEqualTo(results.get("expectedSquares"));
                assertThat(results.get("halves")).isEqualTo(results.get("expectedHalves"));

                List<Map<String, String>> workers = fields(output, "worker");
                assertThat(workers).isNotEmpty();
                for (Map<String, String> worker : workers) {
                    // Each one-core executor holds one chiplet of the snapshot (CPU 0 or CPU 1); its Python workers stay there.
                    assertThat(CpuSet.parseList(worker.get("cpus")).size()).as("Python worker %s", worker).isEqualTo(1);
                }
                Map<String, String> expected = StandaloneSessionSizingTest.expectedSettings(2);
                assertThat(fields(output, "session").getFirst()).containsEntry("partitions", expected.get("spark.sql.shuffle.partitions")).containsEntry("groups", "17");

                String log = Files.readString(serverLog);
                assertThat(log).doesNotContain("Lost task", "No module named");
                String executorLogs = executorLogs(submit.home());
                assertThat(executorLogs).contains("leaves PySpark workers to Spark's own daemon: this application is a Spark Connect server")
                        .doesNotContain("No module named");
            }
        }
    }

    private static String executorLogs(Path home)
            throws Exception
    {
        StringBuilder text = new StringBuilder();
        try (var files = Files.walk(home.resolve("work"))) {
            for (Path file : files.filter(file -> file.getFileName().toString().equals("stderr")).sorted().toList()) {
                text.append(Files.readString(file)).append('\n');
            }
        }
        return text.toString();
    }

    private static List<Map<String, String>> fields(String output, String kind)
    {
        return output.lines().filter(line -> line.startsWith("CHIPLET-PROBE " + kind + " ")).map(line -> {
            Map<String, String> fields = new HashMap<>();
            for (String field : line.substring(("CHIPLET-PROBE " + kind + " ").length()).split(" ")) {
                int equals = field.indexOf('=');
                if (equals > 0) {
                    fields.put(field.substring(0, equals), field.substring(equals + 1));
                }
            }
            return fields;
        }).toList();
    }

    private static void awaitLog(SparkSubmit.Running server, Path log, String text)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (server.processes().isEmpty()) {
                break;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("'" + text + "' not in the server's log:\n" + PipStandalone.tail(log));
    }

    private static int freePort()
            throws Exception
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
