package io.chiplet.it;

import org.apache.spark.launcher.JavaModuleOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * A real Spark standalone cluster on loopback: a Master and Workers, each a separate JVM started from the test class
 * path, with a temporary {@code SPARK_HOME} whose {@code jars/} links every jar of that class path (Workers start
 * executors from {@code SPARK_HOME/jars/*}; class directories, such as the modules under test, go on the executors'
 * {@link #executorClassPath() extra class path}). Every JVM gets Spark's module options and native access, as
 * Spark's own scripts would give them.
 */
final class StandaloneCluster
        implements AutoCloseable
{
    private static final Duration STARTUP = Duration.ofSeconds(90);

    private final Path home;
    private final int masterPort;
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();

    private StandaloneCluster(Path home, int masterPort)
    {
        this.home = home;
        this.masterPort = masterPort;
    }

    /** Starts a Master and {@code workers} Workers of {@code cores} cores and {@code memory} each; returns once all registered. */
    static StandaloneCluster start(Path directory, int workers, int cores, String memory)
            throws IOException, InterruptedException
    {
        requireNonNull(directory, "directory is null");
        Path home = Files.createDirectories(directory.resolve("spark-home"));
        linkClassPathJars(Files.createDirectories(home.resolve("jars")));
        // INFO for every cluster JVM: the test reads the Master's and the executors' logs (the tests' own
        // log4j2-test.properties, also on this class path, would keep them at WARN).
        Files.writeString(Files.createDirectories(home.resolve("conf")).resolve("log4j2-cluster.properties"), """
                rootLogger.level = info
                rootLogger.appenderRef.stderr.ref = stderr
                appender.stderr.type = Console
                appender.stderr.name = stderr
                appender.stderr.target = SYSTEM_ERR
                appender.stderr.layout.type = PatternLayout
                appender.stderr.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n
                logger.jetty.name = org.sparkproject.jetty
                logger.jetty.level = warn
                """);
        StandaloneCluster cluster = new StandaloneCluster(home, freePort());
        try {
            Path masterLog = cluster.launch("master", List.of(
                    // No REST submission server: it would take the fixed port 6066.
                    "-Dspark.master.rest.enabled=false",
                    "org.apache.spark.deploy.master.Master",
                    "--host", "127.0.0.1", "--port", Integer.toString(cluster.masterPort), "--webui-port", Integer.toString(freePort())));
            cluster.await(masterLog, "I have been elected leader", 1);
            for (int worker = 0; worker < workers; worker++) {
                cluster.launch("worker-" + worker, List.of(
                        "org.apache.spark.deploy.worker.Worker",
                        "--host", "127.0.0.1", "--webui-port", Integer.toString(freePort()),
                        "--cores", Integer.toString(cores), "--memory", memory,
                        "--work-dir", Files.createDirectories(home.resolve("work-" + worker)).toString(),
                        cluster.masterUrl()));
            }
            cluster.await(masterLog, "Registering worker", workers);
            return cluster;
        }
        catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    String masterUrl()
    {
        return "spark://127.0.0.1:" + masterPort;
    }

    /**
     * The JVM options every JVM of the cluster gets (give them to executors through
     * {@code spark.executor.extraJavaOptions}): Spark's module options, native access for our FFM calls, the logging.
     */
    String jvmOptions()
    {
        return "--enable-native-access=ALL-UNNAMED -Dlog4j2.configurationFile=" + home.resolve("conf/log4j2-cluster.properties")
                + " " + JavaModuleOptions.defaultModuleOptions();
    }

    /** The class directories of the test class path (the modules under test), which {@code jars/} cannot hold. */
    static String executorClassPath()
    {
        return String.join(java.io.File.pathSeparator, classPath().stream().filter(Files::isDirectory).map(Path::toString).toList());
    }

    /** The executors' stderr files, where their logs go, under every Worker's work directory. */
    List<Path> executorLogs()
    {
        try (Stream<Path> files = Files.walk(home)) {
            return files.filter(file -> file.getFileName().toString().equals("stderr") && file.toString().contains("/work-")).sorted().toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path launch(String name, List<String> mainAndArguments)
            throws IOException
    {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
        command.add("-Xmx256m");
        command.add("-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2-cluster.properties"));
        command.add("-cp");
        command.add(String.join(java.io.File.pathSeparator, classPath().stream().map(Path::toString).toList()));
        command.addAll(mainAndArguments);
        Path log = home.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("SPARK_HOME", home.toString());
        env.put("SPARK_CONF_DIR", home.resolve("conf").toString());
        // Spark's launcher (which Workers use to start executors) otherwise looks for a source build to learn this.
        env.put("SPARK_SCALA_VERSION", "2.13");
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.remove("SPARK_CLASSPATH");
        processes.add(builder.start());
        logs.add(log);
        return log;
    }

    private void await(Path log, String line, int times)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).split(java.util.regex.Pattern.quote(line), -1).length - 1 >= times) {
                return;
            }
            for (Process process : processes) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("a cluster JVM exited with " + process.exitValue() + " during startup; logs:\n" + tails());
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("'" + line + "' did not appear " + times + " times in " + log + " within " + STARTUP + "; logs:\n" + tails());
    }

    String tails()
    {
        StringBuilder text = new StringBuilder();
        for (Path log : Stream.concat(logs.stream(), executorLogs().stream()).toList()) {
            try {
                List<String> lines = Files.readAllLines(log);
                text.append("==> ").append(log).append('\n');
                lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(line -> text.append(line).append('\n'));
            }
            catch (IOException e) {
                text.append("==> ").append(log).append(": ").append(e).append('\n');
            }
        }
        return text.toString();
    }

    /** Stops every JVM of the cluster and everything they started (executors), forcibly after a grace period. */
    @Override
    public void close()
            throws InterruptedException
    {
        ProcessTrees.stop(processes);
    }

    private static List<Path> classPath()
    {
        // Surefire passes the real class path in this property (java.class.path may be a manifest-only jar).
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(classPath.split(java.io.File.pathSeparator)).filter(entry -> !entry.isBlank()).map(Path::of).toList();
    }

    private static void linkClassPathJars(Path jars)
            throws IOException
    {
        int index = 0;
        for (Path entry : classPath()) {
            if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
                // Numbered: two artifacts may share a file name.
                Files.createSymbolicLink(jars.resolve("%03d-%s".formatted(index++, entry.getFileName())), entry.toAbsolutePath());
            }
        }
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
