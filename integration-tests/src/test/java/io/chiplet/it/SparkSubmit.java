package io.chiplet.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark-submit} of a {@link PipSpark pip-installed Spark} on a chosen JDK, as a user runs it: a process of
 * its own, with {@code SPARK_HOME} and {@code JAVA_HOME} set, and a bounded time. Every run gets a
 * {@code SPARK_HOME} of its own (links to the installed one, plus its own {@code conf/} and {@code work/}), so
 * the logs of executors that local-cluster and standalone Workers start under {@code SPARK_HOME/work/<app>/<id>/}
 * belong to this run only. On timeout or at {@link Running#close()} everything the run started (driver, executors,
 * Python workers) is killed.
 */
final class SparkSubmit
{
    /** One cell of the test matrix: a pip {@code pyspark} version on a JDK feature version. */
    record Cell(String pyspark, int jdk)
    {
        Cell
        {
            requireNonNull(pyspark, "pyspark is null");
        }

        /** {@code 4.2.1@25}. */
        static Cell parse(String text)
        {
            String[] parts = text.strip().split("@");
            if (parts.length != 2) {
                throw new IllegalArgumentException("expected a cell as <pyspark version>@<JDK feature version>, e.g. 4.2.1@25: " + text);
            }
            return new Cell(parts[0], Integer.parseInt(parts[1]));
        }

        /** The cells of {@code -Dchiplet.it.sparkCells} (comma-separated), by default {@code 4.2.1@25,3.5.9@17}. */
        static List<Cell> configured()
        {
            return Stream.of(System.getProperty("chiplet.it.sparkCells", "4.2.1@25,3.5.9@17").split(",")).filter(cell -> !cell.isBlank()).map(Cell::parse).toList();
        }

        @Override
        public String toString()
        {
            return "pyspark " + pyspark + " on JDK " + jdk;
        }
    }

    private static final Set<String> OWN_ENTRIES = Set.of("conf", "work", "logs");

    private final PipSpark spark;
    private final Path javaHome;
    private final Path directory;
    private final List<String> arguments = new ArrayList<>();
    private final Map<String, String> conf = new LinkedHashMap<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private String rootLogLevel = "info";
    private Duration timeout = Duration.ofMinutes(4);

    private SparkSubmit(PipSpark spark, Path javaHome, Path directory)
    {
        this.spark = requireNonNull(spark, "spark is null");
        this.javaHome = requireNonNull(javaHome, "javaHome is null");
        this.directory = requireNonNull(directory, "directory is null");
        conf.put("spark.driver.host", "127.0.0.1");
        conf.put("spark.driver.bindAddress", "127.0.0.1");
        conf.put("spark.ui.enabled", "false");
        conf.put("spark.ui.showConsoleProgress", "false");
    }

    /** The cell's Spark (installed if need be) and JDK (the test is skipped when the machine has none). */
    static SparkSubmit of(Cell cell, Path directory)
    {
        Path jdk = Jdks.require(cell.jdk());
        return new SparkSubmit(PipSpark.install(cell.pyspark()), jdk, directory);
    }

    SparkSubmit conf(String key, String value)
    {
        conf.put(key, value);
        return this;
    }

    SparkSubmit conf(Map<String, String> entries)
    {
        conf.putAll(entries);
        return this;
    }

    SparkSubmit env(String key, String value)
    {
        env.put(key, value);
        return this;
    }

    /** Arguments of spark-submit itself, before the application ({@code --master}, {@code --jars}, ...). */
    SparkSubmit option(String... option)
    {
        arguments.addAll(List.of(option));
        return this;
    }

    SparkSubmit master(String master)
    {
        return option("--master", master);
    }

    SparkSubmit jars(Path... jars)
    {
        return option("--jars", String.join(",", Stream.of(jars).map(Path::toString).toList()));
    }

    /** The root logger's level in every JVM of the run (Spark's own default for spark-submit is info). */
    SparkSubmit rootLogLevel(String level)
    {
        this.rootLogLevel = requireNonNull(level, "level is null");
        return this;
    }

    SparkSubmit timeout(Duration timeout)
    {
        this.timeout = requireNonNull(timeout, "timeout is null");
        return this;
    }

    /** Runs a Java application to its end (or the timeout). */
    Result runJava(Path jar, String mainClass, String... applicationArguments)
            throws IOException, InterruptedException
    {
        try (Running running = startJava(jar, mainClass, applicationArguments)) {
            return running.finish();
        }
    }

    Running startJava(Path jar, String mainClass, String... applicationArguments)
            throws IOException
    {
        List<String> application = new ArrayList<>(List.of("--class", mainClass, jar.toString()));
        application.addAll(List.of(applicationArguments));
        return start(application);
    }

    /** Starts a Python application; {@link Running#finish()} waits for its end. */
    Running startPython(Path script, String... applicationArguments)
            throws IOException
    {
        List<String> application = new ArrayList<>(List.of(script.toString()));
        application.addAll(List.of(applicationArguments));
        return start(application);
    }

    /** Runs a Python application to its end (or the timeout). */
    Result runPython(Path script, String... applicationArguments)
            throws IOException, InterruptedException
    {
        List<String> application = new ArrayList<>(List.of(script.toString()));
        application.addAll(List.of(applicationArguments));
        try (Running running = start(application)) {
            return running.finish();
        }
    }

    private Running start(List<String> application)
            throws IOException
    {
        Path home = sparkHome();
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/spark-submit").toString());
        command.addAll(arguments);
        conf.forEach((key, value) -> {
            command.add("--conf");
            command.add(key + "=" + value);
        });
        command.addAll(application);
        Files.writeString(directory.resolve("command.txt"), String.join(" ", command) + "\n");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectOutput(directory.resolve("driver.out").toFile())
                .redirectError(directory.resolve("driver.err").toFile());
        Map<String, String> environment = builder.environment();
        // Nothing of the test JVM's own Spark or Java setup may leak in.
        environment.keySet().removeIf(key -> key.startsWith("SPARK_") || key.startsWith("PYSPARK_") || key.equals("JAVA_TOOL_OPTIONS") || key.equals("_JAVA_OPTIONS") || key.equals("CLASSPATH"));
        environment.put("SPARK_HOME", home.toString());
        environment.put("JAVA_HOME", javaHome.toString());
        environment.put("PATH", javaHome.resolve("bin") + ":" + environment.getOrDefault("PATH", "/usr/bin:/bin"));
        environment.put("SPARK_LOCAL_IP", "127.0.0.1");
        environment.put("PYTHONPATH", spark.site().toString());
        environment.put("PYSPARK_PYTHON", System.getProperty("chiplet.it.python", "python3"));
        environment.putAll(env);
        return new Running(builder.start(), System.nanoTime(), timeout, directory, home);
    }

    /** This run's SPARK_HOME (made on first use): also the home of a Master and Workers started beside it. */
    Path home()
            throws IOException
    {
        return sparkHome();
    }

    Path javaHome()
    {
        return javaHome;
    }

    /** A SPARK_HOME of this run's own: links to the install's entries, its own conf/ (logging) and work/. */
    private Path sparkHome()
            throws IOException
    {
        Path home = Files.createDirectories(directory.resolve("spark-home"));
        if (Files.exists(home.resolve("conf/log4j2.properties"))) {
            return home;
        }
        try (Stream<Path> entries = Files.list(spark.home())) {
            for (Path entry : entries.toList()) {
                Path link = home.resolve(entry.getFileName().toString());
                if (!OWN_ENTRIES.contains(entry.getFileName().toString()) && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(link, entry);
                }
            }
        }
        Files.createDirectories(home.resolve("work"));
        Files.writeString(Files.createDirectories(home.resolve("conf")).resolve("log4j2.properties"), """
                rootLogger.level = %s
                rootLogger.appenderRef.stderr.ref = console
                appender.console.type = Console
                appender.console.name = console
                appender.console.target = SYSTEM_ERR
                appender.console.layout.type = PatternLayout
                appender.console.layout.pattern = %%d{HH:mm:ss.SSS} %%p %%c{1}: %%m%%n
                logger.jetty.name = org.sparkproject.jetty
                logger.jetty.level = warn
                """.formatted(rootLogLevel));
        return home;
    }

    /** A started spark-submit. */
    static final class Running
            implements AutoCloseable
    {
        private final Process process;
        private final long startNanos;
        private final Duration timeout;
        private final Path directory;
        private final Path home;
        private final Set<String> earlierExecutorLogs;

        private Running(Process process, long startNanos, Duration timeout, Path directory, Path home)
        {
            this.process = process;
            this.startNanos = startNanos;
            this.timeout = timeout;
            this.directory = directory;
            this.home = home;
            // Runs may share a home (Standalone): the executors' logs of earlier runs are not this run's.
            this.earlierExecutorLogs = Files.isDirectory(home.resolve("work")) ? executorLogs(home).keySet() : Set.of();
        }

        /** Waits (within the run's time) until one of this run's executor logs contains {@code text}; false if the run ended or timed out first. */
        boolean awaitExecutorLog(String text)
                throws InterruptedException
        {
            while (System.nanoTime() - startNanos < timeout.toNanos()) {
                if (Files.isDirectory(home.resolve("work"))
                        && executorLogs(home).entrySet().stream().anyMatch(log -> !earlierExecutorLogs.contains(log.getKey()) && log.getValue().contains(text))) {
                    return true;
                }
                if (!process.isAlive()) {
                    return false;
                }
                Thread.sleep(200);
            }
            return false;
        }

        /** Waits (within the run's time) for a line of the driver's stdout starting with {@code prefix}; empty if the run ended or timed out first. */
        java.util.Optional<String> awaitLine(String prefix)
                throws IOException, InterruptedException
        {
            while (System.nanoTime() - startNanos < timeout.toNanos()) {
                for (String line : Files.readAllLines(directory.resolve("driver.out"))) {
                    if (line.startsWith(prefix)) {
                        return java.util.Optional.of(line);
                    }
                }
                if (!process.isAlive()) {
                    return java.util.Optional.empty();
                }
                Thread.sleep(200);
            }
            return java.util.Optional.empty();
        }

        /** The processes this run started that still run: the driver and its descendants (executors, Python workers). */
        List<ProcessHandle> processes()
        {
            List<ProcessHandle> all = new ArrayList<>();
            all.add(process.toHandle());
            process.descendants().forEach(all::add);
            return all.stream().filter(ProcessHandle::isAlive).toList();
        }

        /** Waits for the end, or kills everything at the timeout; collects the logs. */
        Result finish()
                throws IOException, InterruptedException
        {
            long left = timeout.toNanos() - (System.nanoTime() - startNanos);
            boolean timedOut = !process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (timedOut) {
                kill();
            }
            return new Result(timedOut ? -1 : process.exitValue(), timedOut, Duration.ofNanos(System.nanoTime() - startNanos),
                    read(directory.resolve("driver.out")), read(directory.resolve("driver.err")), executorLogs(home));
        }

        private void kill()
                throws InterruptedException
        {
            List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
            all.add(process.toHandle());
            all.forEach(ProcessHandle::destroy);
            for (ProcessHandle handle : all) {
                try {
                    handle.onExit().get(10, TimeUnit.SECONDS);
                }
                catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    handle.destroyForcibly();
                }
            }
        }

        /** Kills whatever of the run is still alive. */
        @Override
        public void close()
                throws InterruptedException
        {
            if (process.isAlive() || process.descendants().findAny().isPresent()) {
                kill();
            }
        }
    }

    /**
     * @param exitCode spark-submit's exit code; -1 when it was killed at the timeout
     * @param executorLogs each executor's {@code stderr} (its log) by its path under {@code SPARK_HOME/work}
     */
    record Result(int exitCode, boolean timedOut, Duration took, String stdout, String driverLog, Map<String, String> executorLogs)
    {
        /** The probe's lines ({@code CHIPLET-PROBE <kind> key=value...}) of one kind, as key-value maps. */
        List<Map<String, String>> probeLines(String kind)
        {
            List<Map<String, String>> lines = new ArrayList<>();
            for (String line : stdout.split("\n")) {
                String prefix = "CHIPLET-PROBE " + kind + " ";
                if (line.startsWith(prefix)) {
                    Map<String, String> fields = new LinkedHashMap<>();
                    for (String field : line.substring(prefix.length()).split(" ")) {
                        int equals = field.indexOf('=');
                        if (equals > 0) {
                            fields.put(field.substring(0, equals), field.substring(equals + 1));
                        }
                    }
                    lines.add(fields);
                }
            }
            return lines;
        }

        boolean succeeded()
        {
            return !timedOut && exitCode == 0;
        }

        /** For assertion messages: how it ended and the tails of every log. */
        String describe()
        {
            StringBuilder text = new StringBuilder(timedOut ? "timed out after " + took.toSeconds() + " s" : "exit code " + exitCode + " after " + took.toSeconds() + " s").append('\n');
            text.append("==> driver stdout\n").append(tail(stdout, 30)).append("==> driver log\n").append(tail(driverLog, 60));
            executorLogs.forEach((path, log) -> text.append("==> ").append(path).append('\n').append(tail(log, 40)));
            return text.toString();
        }

        private static String tail(String text, int lines)
        {
            List<String> all = List.of(text.split("\n"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
        }
    }

    private static String read(Path file)
            throws IOException
    {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private static Map<String, String> executorLogs(Path home)
    {
        Map<String, String> logs = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(home.resolve("work"))) {
            for (Path file : files.filter(file -> file.getFileName().toString().equals("stderr")).sorted().toList()) {
                logs.put(home.relativize(file).toString(), Files.readString(file));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return logs;
    }
}
