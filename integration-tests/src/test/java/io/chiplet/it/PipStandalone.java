package io.chiplet.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A Spark Standalone Master and Workers as users start them from a pip-installed pyspark: {@code bin/spark-class
 * org.apache.spark.deploy.master.Master} and {@code ...worker.Worker} (what {@code sbin/start-master.sh} and
 * {@code start-worker.sh} run; the wheel ships no {@code sbin/start-*}), on loopback and free ports, with the
 * {@code SPARK_HOME} of a {@link SparkSubmit} run so executors log under its {@code work/}. Workers can be started
 * at any time, each with an environment of its own. {@link #close()} kills every process it started, executors too.
 */
final class PipStandalone
        implements AutoCloseable
{
    private static final Duration STARTUP = Duration.ofSeconds(90);

    private final Path home;
    private final Path javaHome;
    private final int port;
    private final List<Process> processes = new ArrayList<>();
    private final Path masterLog;

    private PipStandalone(Path home, Path javaHome, int port)
    {
        this.home = requireNonNull(home, "home is null");
        this.javaHome = requireNonNull(javaHome, "javaHome is null");
        this.port = port;
        this.masterLog = home.resolve("master.log");
    }

    static PipStandalone startMaster(Path home, Path javaHome)
            throws IOException, InterruptedException
    {
        PipStandalone cluster = new PipStandalone(home, javaHome, freePort());
        try {
            cluster.launch(cluster.masterLog, Map.of("SPARK_MASTER_OPTS", "-Dspark.master.rest.enabled=false"),
                    "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", Integer.toString(cluster.port), "--webui-port", Integer.toString(freePort()));
            cluster.await(cluster.masterLog, "I have been elected leader", 1);
            return cluster;
        }
        catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    String masterUrl()
    {
        return "spark://127.0.0.1:" + port;
    }

    /** Starts a Worker of {@code cores} cores and returns once the Master registered it. */
    void startWorker(String name, int cores, Map<String, String> environment)
            throws IOException, InterruptedException
    {
        int registered = count(masterLog, "Registering worker");
        launch(home.resolve(name + ".log"), environment, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                "--webui-port", Integer.toString(freePort()), "--cores", Integer.toString(cores), "--memory", "1g",
                "--work-dir", Files.createDirectories(home.resolve("work")).toString(), masterUrl());
        await(masterLog, "Registering worker", registered + 1);
    }

    /** The executor JVMs the Workers run now. */
    List<ProcessHandle> executors()
    {
        return processes.stream().flatMap(Process::descendants)
                .filter(handle -> handle.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend"))
                .filter(ProcessHandle::isAlive)
                .toList();
    }

    private void launch(Path log, Map<String, String> environment, String... mainAndArguments)
            throws IOException
    {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/spark-class").toString()));
        command.addAll(List.of(mainAndArguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(key -> key.startsWith("SPARK_") || key.startsWith("PYSPARK_") || key.equals("JAVA_TOOL_OPTIONS") || key.equals("CLASSPATH"));
        env.put("SPARK_HOME", home.toString());
        env.put("SPARK_CONF_DIR", home.resolve("conf").toString());
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("JAVA_HOME", javaHome.toString());
        env.put("PATH", javaHome.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(environment);
        processes.add(builder.start());
    }

    private void await(Path log, String line, int times)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (System.nanoTime() < deadline) {
            if (count(log, line) >= times) {
                return;
            }
            for (Process process : processes) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("a Standalone process exited with " + process.exitValue() + "; " + log + ":\n" + tail(log));
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("'" + line + "' did not appear " + times + " times in " + log + " within " + STARTUP + ":\n" + tail(log));
    }

    private static int count(Path log, String line)
            throws IOException
    {
        return Files.exists(log) ? Files.readString(log).split(Pattern.quote(line), -1).length - 1 : 0;
    }

    static String tail(Path log)
    {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }
        catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close()
            throws InterruptedException
    {
        ProcessTrees.stop(processes);
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
