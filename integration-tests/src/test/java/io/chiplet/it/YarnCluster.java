package io.chiplet.it;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * A real YARN on this machine: Hadoop's MiniYARNCluster (a ResourceManager and two NodeManagers whose containers
 * are real processes) in a JVM of its own ({@link MiniYarnMain}, on the test JVM's JDK, with Hadoop's class path
 * only), and the {@code HADOOP_CONF_DIR} that points {@code spark-submit --master yarn} at it. NodeManager 0 takes
 * the executors of applications that ask for the node label {@value MiniYarnMain#EXECUTOR_LABEL}
 * ({@link #ON_EXECUTOR_NODE}); application masters go to NodeManager 1.
 *
 * <p>Started once per test run and shared by every YARN test class ({@link Resolver}, JUnit's root store), which
 * closes it when the run ends: {@link #close()} stops the cluster JVM and everything under it (containers too).
 */
final class YarnCluster
        implements ExtensionContext.Store.CloseableResource
{
    private static final Duration STARTUP = Duration.ofSeconds(180);
    /** By name: the test JVM must not load it (its Hadoop classes are not on this class path). */
    private static final String MINI_YARN_MAIN = "io.chiplet.it.MiniYarnMain";

    /** The setting that puts an application's executors on NodeManager 0. */
    static final Map<String, String> ON_EXECUTOR_NODE = Map.of("spark.yarn.executor.nodeLabelExpression", MiniYarnMain.EXECUTOR_LABEL);

    private final Process process;
    private final Path directory;
    private final Path confDir;
    /** Each NodeManager's container log directory, by index. */
    private final List<Path> logDirs;

    private YarnCluster(Process process, Path directory, Path confDir, List<Path> logDirs)
    {
        this.process = requireNonNull(process, "process is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.confDir = requireNonNull(confDir, "confDir is null");
        this.logDirs = List.copyOf(logDirs);
    }

    /** Resolves a {@link YarnCluster} parameter to the run's one cluster, starting it on first use. */
    static final class Resolver
            implements ParameterResolver
    {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context)
        {
            return parameter.getParameter().getType() == YarnCluster.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
        {
            return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                    .getOrComputeIfAbsent(YarnCluster.class, key -> start(Path.of("target", "yarn-cluster").toAbsolutePath()), YarnCluster.class);
        }
    }

    static YarnCluster start(Path directory)
    {
        try {
            deleteTree(directory);
            Path confDir = Files.createDirectories(directory.resolve("conf"));
            Path log = directory.resolve("yarn.log");
            Files.writeString(directory.resolve("log4j2-yarn.properties"), """
                    rootLogger.level = warn
                    rootLogger.appenderRef.stdout.ref = stdout
                    appender.stdout.type = Console
                    appender.stdout.name = stdout
                    appender.stdout.layout.type = PatternLayout
                    appender.stdout.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n
                    """);
            String hadoop = System.getProperty("chiplet.it.yarnClassPath", "");
            if (hadoop.isBlank()) {
                throw new IllegalStateException("-Dchiplet.it.yarnClassPath is not set: run the YARN tests through Maven (integration-tests/pom.xml sets it)");
            }
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx768m",
                    "-Dtest.build.data=" + directory.resolve("work"),
                    "-Dlog4j2.configurationFile=" + directory.resolve("log4j2-yarn.properties"),
                    "-cp", hadoop + java.io.File.pathSeparator + testClasses(),
                    MINI_YARN_MAIN, confDir.toString(), "2");
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            env.keySet().removeIf(key -> key.startsWith("SPARK_") || key.startsWith("HADOOP_") || key.startsWith("YARN_") || key.equals("CLASSPATH") || key.equals("JAVA_TOOL_OPTIONS"));
            env.put("JAVA_HOME", System.getProperty("java.home"));
            Process process = builder.start();
            try {
                String ready = awaitReady(process, log);
                List<Path> logDirs = new ArrayList<>();
                for (String node : ready.substring(ready.indexOf("nodes=") + "nodes=".length()).strip().split(";")) {
                    logDirs.add(Path.of(node.substring(node.indexOf('=') + 1)));
                }
                System.err.println("chiplet-it: YARN " + ready);
                return new YarnCluster(process, directory, confDir, logDirs);
            }
            catch (RuntimeException | InterruptedException e) {
                ProcessTrees.stop(List.of(process));
                throw e;
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot start MiniYARNCluster under " + directory + ": " + e.getMessage(), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted starting MiniYARNCluster", e);
        }
    }

    private static String awaitReady(Process process, Path log)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log)) {
                Optional<String> ready = Files.readAllLines(log).stream().filter(line -> line.startsWith("CHIPLET-YARN ready")).findFirst();
                if (ready.isPresent()) {
                    return ready.get();
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("MiniYARNCluster exited with " + process.exitValue() + " before it was ready; " + log + ":\n" + PipStandalone.tail(log));
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("MiniYARNCluster not ready within " + STARTUP + "; " + log + ":\n" + PipStandalone.tail(log));
    }

    /** {@code HADOOP_CONF_DIR} for spark-submit: the cluster's yarn-site.xml and core-site.xml. */
    Path confDir()
    {
        return confDir;
    }

    /**
     * What every spark-submit to this cluster gets besides its own settings: the conf dir, Spark's jars from the pip
     * install ({@code local:}, nothing uploaded), PySpark from it too, the JDK for the containers, and a staging
     * directory of the run's own.
     */
    SparkSubmit prepare(SparkSubmit submit, PipSpark spark, Path staging)
    {
        String javaHome = submit.javaHome().toString();
        return submit.master("yarn")
                .env("HADOOP_CONF_DIR", confDir.toString())
                // The wheel has no python/lib/pyspark.zip: the containers import PySpark from the pip target itself.
                .env("PYSPARK_ARCHIVES_PATH", "local:" + spark.site())
                .conf("spark.yarn.jars", "local:" + spark.home().resolve("jars") + "/*")
                .conf("spark.yarn.stagingDir", staging.toUri().toString())
                .conf("spark.executorEnv.JAVA_HOME", javaHome)
                .conf("spark.yarn.appMasterEnv.JAVA_HOME", javaHome)
                .conf("spark.yarn.appMasterEnv.PYSPARK_PYTHON", System.getProperty("chiplet.it.python", "python3"))
                .conf("spark.executorEnv.PYSPARK_PYTHON", System.getProperty("chiplet.it.python", "python3"))
                // Loopback, as every test's driver: in cluster mode the driver (in the AM) advertises this host name.
                .conf("spark.yarn.appMasterEnv.SPARK_LOCAL_IP", "127.0.0.1")
                .conf("spark.executorEnv.SPARK_LOCAL_IP", "127.0.0.1")
                // A failed application fails the test at once rather than after a second attempt.
                .conf("spark.yarn.maxAppAttempts", "1")
                .conf("spark.executor.memory", "512m")
                .conf("spark.yarn.am.memory", "512m")
                .conf("spark.driver.memory", "512m");
    }

    /** The log files of an application's containers ({@code <container id>/stdout|stderr}), on every NodeManager. */
    Map<String, Path> containerLogs(String application, String file)
    {
        Map<String, Path> logs = new LinkedHashMap<>();
        for (Path logDir : logDirs) {
            Path app = logDir.resolve(application);
            if (!Files.isDirectory(app)) {
                continue;
            }
            try (Stream<Path> containers = Files.list(app)) {
                containers.sorted().forEach(container -> {
                    Path log = container.resolve(file);
                    if (Files.isRegularFile(log)) {
                        logs.put(container.getFileName().toString(), log);
                    }
                });
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return logs;
    }

    /** Which NodeManager ran a container (its index), from where its logs are. */
    int nodeOf(String application, String container)
    {
        for (int index = 0; index < logDirs.size(); index++) {
            if (Files.isDirectory(logDirs.get(index).resolve(application).resolve(container))) {
                return index;
            }
        }
        throw new IllegalArgumentException("no NodeManager ran " + container + " of " + application);
    }

    /** The live processes whose command line holds {@code application} and {@code mainClass}: an application's containers. */
    static List<Long> processes(String application, String mainClass)
    {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(path -> path.getFileName().toString().matches("\\d+")).filter(path -> {
                try {
                    String command = Files.readString(path.resolve("cmdline")).replace('\0', ' ');
                    // The java process itself, not the bash -c that YARN's launch script runs it under.
                    return command.contains(mainClass) && command.contains(application) && command.contains("/bin/java ") && !command.startsWith("bash") && !command.startsWith("/bin/bash");
                }
                catch (IOException | UncheckedIOException e) {
                    return false;
                }
            }).map(path -> Long.parseLong(path.getFileName().toString())).sorted().toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close()
    {
        ProcessTrees.stop(List.of(process));
    }

    Path directory()
    {
        return directory;
    }

    private static String testClasses()
    {
        // The directory holding this class and MiniYarnMain (target/test-classes).
        try {
            return Path.of(YarnCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        }
        catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path root)
            throws IOException
    {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
