package io.chiplet.it;

import io.chiplet.it.SparkSubmit.Cell;
import io.chiplet.it.SparkSubmit.Result;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin on a real YARN ({@link YarnCluster}: a ResourceManager and two NodeManagers on this machine), submitted as
 * users submit: {@code spark-submit --master yarn} from the pip-installed pyspark ({@link #CELL}), the shaded plugin
 * jar only on {@code --jars}, two one-core executors in containers of NodeManager 0 (their application master on
 * NodeManager 1), on the snapshot that maps this machine's two CPUs as two chiplets. The application
 * ({@code yarn_probe.py}) runs a JVM job whose task threads read their own masks and a PySpark job whose Python workers
 * read theirs, then holds while the test reads the containers' threads from {@code /proc}.
 *
 * <p>Four applications: the plugin off (the reference answer, run once for the class); task mode in client deploy
 * mode with no lease setting at all (what a user who never read the advice runs); task mode with a lease directory of
 * each container's own (the driver's coordination); and cluster deploy mode with exactly the {@code spark.*} lines
 * {@code chiplet advise --engine spark --cluster-manager yarn} prints (executor mode), whose run is also the one
 * {@code docs/cluster-managers.md} shows.
 */
@ExtendWith(YarnCluster.Resolver.class)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class YarnSparkTest
{
    static final Cell CELL = Cell.configured().getFirst();
    private static final int PARTITIONS = 8;
    private static final Duration RUN = Duration.ofMinutes(4);
    private static final Pattern CONTAINER = Pattern.compile("container_\\d+_\\d+_\\d+_\\d+");
    private static final Pattern APPLICATION = Pattern.compile("application_\\d+_\\d+");
    static final Path CAPTURE = Path.of("target", "yarn-run.txt");
    private static final Path DOCS = Path.of("..", "docs", "cluster-managers.md");

    @TempDir
    static Path temp;

    private static YarnCluster yarn;
    private static Path snapshot;
    private static String liveCpus;
    private static Run pluginOff;

    @BeforeAll
    static void setUp(YarnCluster cluster)
            throws IOException
    {
        liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        yarn = cluster;
        snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
    }

    /**
     * Task mode, client deploy mode, and nothing about leases set (the default lease directory): each executor's task
     * threads ran on one chiplet's CPU, the two executors' on disjoint ones, each leased its chiplet exclusively (the
     * kernel's lock table names the two executor processes as the owners); every Python worker ran on the chiplet of
     * the task it served; the application master ({@code ExecutorLauncher}) kept the whole mask; the driver sized
     * partitions for the two executors {@code spark.executor.instances} asked for; the answer is the plugin-off one.
     */
    @Test
    void taskModeWithoutAnyLeaseSettingGivesTwoExecutorsOfOneNodeManagerDisjointChiplets()
            throws Exception
    {
        Map<String, String> conf = new LinkedHashMap<>(pluginPlumbing());
        conf.put("spark.executor.instances", "2");
        conf.put("spark.executor.cores", "1");
        Run run = run("task-mode", "client", conf, true);
        Run off = pluginOff();

        assertThat(run.checksum()).isEqualTo(off.checksum());
        assertExecutorsOnNodeManager0(run);
        // JVM task threads: one CPU per executor, the executors' CPUs disjoint.
        Map<String, Set<String>> cpusByExecutor = new TreeMap<>();
        for (Map<String, String> task : run.probe("jvm")) {
            assertThat(run.executorPids()).as("pid of a task thread's executor, among the app's YarnCoarseGrainedExecutorBackend processes").contains(Long.parseLong(task.get("pid")));
            cpusByExecutor.computeIfAbsent(task.get("pid"), pid -> new TreeSet<>()).add(task.get("cpus"));
        }
        assertDisjointSingleCpus(cpusByExecutor, run);
        // Python workers: each on its task thread's chiplet, the daemons on their executor's whole mask.
        Map<String, Set<String>> cpusByJvm = new TreeMap<>();
        assertThat(run.probe("python")).as(run.describe()).hasSize(PARTITIONS).allSatisfy(task -> {
            assertThat(task.get("cpus")).isIn("0", "1").isEqualTo(task.get("property"));
            assertThat(task.get("daemon")).isEqualTo(liveCpus);
            cpusByJvm.computeIfAbsent(task.get("jvm"), jvm -> new TreeSet<>()).add(task.get("cpus"));
        });
        assertDisjointSingleCpus(cpusByJvm, run);
        // The leases: in the default directory, one chiplet's owner slot per executor process.
        assertThat(run.leaseHoldersSeen()).as(run.describe()).containsOnlyKeys(0, 1)
                .satisfies(holders -> assertThat(new TreeSet<>(holders.values())).containsExactlyElementsOf(run.executorPids()));
        assertThat(run.executorLogs()).as(run.describe()).hasSize(2).allSatisfy((container, log) -> assertThat(log)
                .containsPattern("Chiplet plugin on executor \\d+: task mode, 1 task slot for 1 core on chiplets \\[[01]]")
                .contains(": exclusive")
                .doesNotContain("shared with", "Chiplet plugin disabled"));
        assertApplicationMasterLeftAlone(run, "org.apache.spark.deploy.yarn.ExecutorLauncher");
        assertSizedForTwo(run, "spark.executor.instances");
    }

    /**
     * Executors of one host whose lease directories are not one directory, as in containers with a private
     * {@code /tmp} (Docker on YARN): {@code spark.chiplet.leaseDir} relative, so each container leases under its own
     * working directory and no lock file coordinates them. The driver must: the two executors' task threads still run
     * on disjoint chiplets, and the driver warns once that they do not share a lease directory; the answer is the
     * plugin-off one.
     */
    @Test
    void executorsWhoseLeaseDirectoriesDifferAreKeptApartByTheDriverWhichWarnsOnce()
            throws Exception
    {
        Map<String, String> conf = new LinkedHashMap<>(pluginPlumbing());
        conf.put("spark.executor.instances", "2");
        conf.put("spark.executor.cores", "1");
        conf.put("spark.chiplet.leaseDir", "container-private-leases");
        Run run = run("private-lease-dirs", "client", conf, true);

        assertThat(run.checksum()).isEqualTo(pluginOff().checksum());
        assertExecutorsOnNodeManager0(run);
        Map<String, Set<String>> cpusByExecutor = new TreeMap<>();
        run.probe("jvm").forEach(task -> cpusByExecutor.computeIfAbsent(task.get("pid"), pid -> new TreeSet<>()).add(task.get("cpus")));
        assertDisjointSingleCpus(cpusByExecutor, run);
        assertThat(run.driverLog().split("do not share a lease directory", -1)).as(run.describe()).hasSize(2);
    }

    /**
     * Cluster deploy mode with the {@code spark.*} lines {@code chiplet advise --engine spark --cluster-manager yarn
     * --fs-root <snapshot>} prints, passed verbatim (executor mode, the advised container size): each executor's whole
     * process (every thread) bound to one chiplet's CPU, the two disjoint, the leases in the advised directory held by
     * the two executor processes; the application master, which hosts the driver in this mode, kept the whole mask;
     * the driver sized partitions for YARN's default of two executors; the answer is the plugin-off one. The run is
     * written to {@link #CAPTURE}, and {@code docs/cluster-managers.md} must show a run of the same shape.
     */
    @Test
    void clusterModeWithTheAdvisedSettingsVerbatimBindsEachExecutorProcessToAChipletOfItsOwn()
            throws Exception
    {
        Map<String, String> advised = Advice.sparkOnYarn(snapshot);
        assertThat(advised).as("what chiplet advise prints for Spark on YARN").containsKeys("spark.plugins", "spark.chiplet.mode");
        Map<String, String> conf = new LinkedHashMap<>(testOnly());
        conf.putAll(advised);
        Run run = run("advised", "cluster", conf, true);
        Run off = pluginOff();

        assertThat(run.checksum()).isEqualTo(off.checksum());
        assertExecutorsOnNodeManager0(run);
        Map<Long, CpuSet> bound = new TreeMap<>();
        run.executorThreadMasks().forEach((pid, masks) -> {
            assertThat(new java.util.HashSet<>(masks.values())).as("masks of the threads of executor %d", pid).hasSize(1);
            bound.put(pid, masks.values().iterator().next());
        });
        assertThat(bound).hasSize(2);
        assertThat(bound.values()).allSatisfy(cpus -> assertThat(cpus).isIn(CpuSet.of(0), CpuSet.of(1)));
        assertThat(new java.util.HashSet<>(bound.values())).hasSize(2);
        // Task threads and Python workers ran inside their executor's binding.
        for (Map<String, String> task : run.probe("jvm")) {
            assertThat(task.get("cpus")).isEqualTo(bound.get(Long.parseLong(task.get("pid"))).toString());
        }
        assertThat(run.probe("python")).hasSize(PARTITIONS).allSatisfy(task -> assertThat(task.get("cpus")).isEqualTo(bound.get(Long.parseLong(task.get("jvm"))).toString()));
        // The leases, in the directory the advice names (or the default one).
        assertThat(run.leaseHoldersSeen()).as(run.describe()).containsOnlyKeys(0, 1)
                .satisfies(holders -> assertThat(new TreeSet<>(holders.values())).containsExactlyElementsOf(run.executorPids()));
        assertThat(run.executorLogs()).as(run.describe()).hasSize(2).allSatisfy((container, log) -> assertThat(log)
                .contains("executor mode", "process bound to leased chiplet", ": exclusive")
                .doesNotContain("shared with", "Chiplet plugin disabled"));
        assertApplicationMasterLeftAlone(run, "org.apache.spark.deploy.yarn.ApplicationMaster");
        assertSizedForTwo(run, "spark.executor.instances is unset: 2, its default on YARN and Kubernetes");

        List<String> capture = capture(run, advised, bound);
        Files.writeString(CAPTURE, String.join("\n", capture) + "\n");
        List<String> shown = YarnDocs.shownRun(DOCS);
        assertThat(YarnDocs.shape(shown)).as("the YARN run docs/cluster-managers.md shows, against this run (written to %s)", CAPTURE.toAbsolutePath())
                .isEqualTo(YarnDocs.shape(capture));
    }

    /** The settings every plugin-on run of these tests has besides the user's: the snapshot, every task placed. */
    static Map<String, String> testOnly()
    {
        return Map.of(
                // The snapshot that maps this machine's two CPUs as two chiplets.
                "spark.chiplet.fsRoot", snapshot.toString(),
                // Every task and executor is placed here (measurement would leave a drawn control unplaced; MeasureInPlaceTest has those).
                "spark.chiplet.measure.enabled", "false");
    }

    private static Map<String, String> pluginPlumbing()
    {
        Map<String, String> conf = new LinkedHashMap<>(testOnly());
        conf.put("spark.plugins", Spark.PLUGIN);
        return conf;
    }

    private static synchronized Run pluginOff()
            throws Exception
    {
        if (pluginOff == null) {
            pluginOff = run("plugin-off", "client", Map.of("spark.executor.instances", "2", "spark.executor.cores", "1"), false);
            // Without the plugin nothing moves.
            assertThat(pluginOff.probe("jvm")).hasSize(PARTITIONS).allSatisfy(task -> assertThat(task.get("cpus")).isEqualTo(liveCpus));
            assertThat(pluginOff.probe("python")).hasSize(PARTITIONS).allSatisfy(task -> assertThat(task.get("property")).isEqualTo("none"));
        }
        return pluginOff;
    }

    private static void assertExecutorsOnNodeManager0(Run run)
    {
        assertThat(run.executorContainers()).as(run.describe()).hasSize(2)
                .allSatisfy(container -> assertThat(yarn.nodeOf(run.application(), container)).as("NodeManager of %s", container).isZero());
    }

    private static void assertDisjointSingleCpus(Map<String, Set<String>> cpusByExecutor, Run run)
    {
        assertThat(cpusByExecutor).as(run.describe()).hasSize(2);
        assertThat(cpusByExecutor.values()).allSatisfy(cpus -> assertThat(cpus).hasSize(1).isSubsetOf("0", "1"));
        assertThat(cpusByExecutor.values().stream().flatMap(Set::stream).collect(Collectors.toSet())).containsExactlyInAnyOrder("0", "1");
    }

    private static void assertApplicationMasterLeftAlone(Run run, String mainClass)
    {
        assertThat(run.amMainClass()).isEqualTo(mainClass);
        assertThat(run.amThreadMasks()).as("threads of the application master (%s)", mainClass).isNotEmpty()
                .allSatisfy((tid, mask) -> assertThat(mask.toString()).isEqualTo(CpuSet.parseList(liveCpus).toString()));
        assertThat(yarn.nodeOf(run.application(), run.amContainer())).as("NodeManager of the application master").isEqualTo(1);
    }

    private static void assertSizedForTwo(Run run, String basis)
    {
        Map<String, String> expected = StandaloneSessionSizingTest.expectedSettings(2);
        assertThat(run.probe("session")).singleElement().satisfies(session -> {
            assertThat(session).containsEntry("partitions", expected.get("spark.sql.shuffle.partitions"));
            assertThat(session).containsEntry("parallelism", expected.get("spark.default.parallelism"));
        });
        assertThat(run.driverLog()).contains("sized partitions for 2 of 2 expected executors (" + basis + ")")
                .doesNotContain("sized partitions for 3");
    }

    /** The run as docs/cluster-managers.md shows it: the advised settings, the submit command, the executors' lines and masks. */
    private static List<String> capture(Run run, Map<String, String> advised, Map<Long, CpuSet> bound)
    {
        List<String> lines = new ArrayList<>();
        lines.add("# the spark.* lines of: chiplet advise --engine spark --cluster-manager yarn --fs-root <snapshot>");
        advised.forEach((key, value) -> lines.add(key + "=" + value));
        lines.add("$ spark-submit --master yarn --deploy-mode cluster --jars chiplet-spark-plugin-all.jar \\");
        advised.forEach((key, value) -> lines.add("    --conf " + key + "=" + value + " \\"));
        lines.add("    app.py");
        lines.add("# this machine also passes spark.chiplet.fsRoot=<snapshot> (its two CPUs as two chiplets) and spark.chiplet.measure.enabled=false;");
        lines.add("# HADOOP_CONF_DIR, spark.yarn.jars and the containers' JAVA_HOME point at the test's YARN");
        lines.add("# each executor container's log (NodeManager log dir, <application>/<container>/stderr)");
        Pattern ours = Pattern.compile("(?:INFO|WARN) \\w+: (Chiplet plugin on executor .*)");
        run.executorLogs().forEach((container, log) -> log.lines().map(ours::matcher).filter(Matcher::find)
                .map(matcher -> container.replaceAll("_\\d+$", "_0000NN").replaceFirst("container_\\d+_\\d+", "container_<app>") + ": "
                        + matcher.group(1).replace(snapshot.toString(), "<snapshot>"))
                .forEach(lines::add));
        lines.add("# the containers' threads, from /proc/<pid>/task/<tid>/status");
        bound.forEach((pid, cpus) -> lines.add("YarnCoarseGrainedExecutorBackend pid " + pid + ": " + run.executorThreadMasks().get(pid).size()
                + " threads, Cpus_allowed_list " + cpus));
        lines.add("ApplicationMaster (driver) pid " + run.amPid() + ": " + run.amThreadMasks().size() + " threads, Cpus_allowed_list "
                + run.amThreadMasks().values().stream().map(CpuSet::toString).distinct().sorted().collect(Collectors.joining(" ")));
        return lines;
    }

    /**
     * Submits {@code yarn_probe.py} to the cluster in {@code deployMode}, waits until it holds, reads the containers'
     * threads and the lease table, lets it finish, and collects its output and its containers' logs.
     */
    static Run run(String name, String deployMode, Map<String, String> conf, boolean plugin)
            throws Exception
    {
        Path directory = Files.createDirectories(temp.resolve(name));
        Path script = directory.resolve("yarn_probe.py");
        try (var in = YarnSparkTest.class.getResourceAsStream("/yarn_probe.py")) {
            Files.copy(in, script);
        }
        Path hold = directory.resolve("hold");
        SparkSubmit submit = SparkSubmit.of(CELL, directory);
        yarn.prepare(submit, PipSpark.install(CELL.pyspark()), directory.resolve("staging"))
                .option("--deploy-mode", deployMode)
                .conf(YarnCluster.ON_EXECUTOR_NODE)
                .conf(conf)
                .timeout(RUN);
        if (plugin) {
            submit.jars(ProbeJar.get(), ProbeJar.pluginJar());
        }
        else {
            submit.jars(ProbeJar.get());
        }
        long start = System.nanoTime();
        Run.Builder seen = new Run.Builder(name, deployMode, directory);
        try (SparkSubmit.Running running = submit.startPython(script, Integer.toString(PARTITIONS), "2", hold.toString())) {
            String application = awaitHolding(running, seen);
            List<Long> executors = YarnCluster.processes(application, "YarnCoarseGrainedExecutorBackend");
            seen.executors(executors);
            String amClass = deployMode.equals("client") ? "org.apache.spark.deploy.yarn.ExecutorLauncher" : "org.apache.spark.deploy.yarn.ApplicationMaster";
            List<Long> am = YarnCluster.processes(application, amClass);
            assertThat(am).as("the application master's process").hasSize(1);
            seen.am(amClass, am.getFirst());
            seen.leaseHolders(ProcFiles.ownerSlotHolders(Path.of(conf.getOrDefault("spark.chiplet.leaseDir", "/tmp/chiplet-leases"))));
            Files.writeString(hold, "done");
            Result result = running.finish();
            seen.finished(result, yarn);
            Run run = seen.build();
            assertThat(result.succeeded()).as(run.describe()).isTrue();
            System.err.printf("chiplet-it: YARN %s run (%s mode) took %d s%n", name, deployMode, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
            return run;
        }
        finally {
            // A failed check must not leave the application holding its containers (in cluster mode it outlives spark-submit).
            if (!Files.exists(hold)) {
                Files.writeString(hold, "failed");
            }
        }
    }

    /** Waits for the probe's {@code holding} line, in the driver's stdout (client mode) or its AM container's (cluster mode). */
    private static String awaitHolding(SparkSubmit.Running running, Run.Builder seen)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + RUN.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> application = seen.application();
            if (application.isPresent() && seen.stdout(yarn).contains("CHIPLET-PROBE holding")) {
                return application.get();
            }
            if (running.processes().isEmpty()) {
                break;
            }
            Thread.sleep(200);
        }
        Result result = running.finish();
        throw new AssertionError("the probe never held: " + result.describe() + "\n==> yarn stdout\n" + seen.stdout(yarn));
    }

    /** What one application showed: its output, its containers' logs, and what /proc said while it held. */
    record Run(String name, String application, String stdout, String driverLog, Map<String, String> executorLogs,
               List<Long> executorPids, Map<Long, String> executorContainerByPid, Map<Long, Map<Long, CpuSet>> executorThreadMasks,
               String amMainClass, long amPid, String amContainer, Map<Long, CpuSet> amThreadMasks, Map<Integer, Long> leaseHoldersSeen, Result result)
    {
        List<Map<String, String>> probe(String kind)
        {
            return new Result(0, false, Duration.ZERO, stdout, "", Map.of()).probeLines(kind);
        }

        String checksum()
        {
            assertThat(probe("result")).as(describe()).hasSize(1);
            return probe("result").getFirst().get("checksum");
        }

        List<String> executorContainers()
        {
            return List.copyOf(executorContainerByPid.values());
        }

        String describe()
        {
            StringBuilder text = new StringBuilder(result.describe());
            text.append("==> application ").append(application).append(" stdout\n").append(stdout);
            executorLogs.forEach((container, log) -> text.append("==> ").append(container).append('\n')
                    .append(String.join("\n", log.lines().filter(line -> line.contains("hiplet") || line.contains("ERROR")).toList())).append('\n'));
            return text.toString();
        }

        static final class Builder
        {
            private final String name;
            private final String deployMode;
            private final Path directory;
            private String application;
            private List<Long> executors = List.of();
            private final Map<Long, String> containers = new TreeMap<>();
            private final Map<Long, Map<Long, CpuSet>> executorMasks = new TreeMap<>();
            private String amClass = "";
            private long amPid;
            private String amContainer = "";
            private Map<Long, CpuSet> amMasks = Map.of();
            private Map<Integer, Long> holders = Map.of();
            private Result result;
            private String stdout = "";
            private String driverLog = "";
            private final Map<String, String> executorLogs = new TreeMap<>();

            Builder(String name, String deployMode, Path directory)
            {
                this.name = name;
                this.deployMode = deployMode;
                this.directory = directory;
            }

            Optional<String> application()
                    throws IOException
            {
                if (application == null) {
                    Path err = directory.resolve("driver.err");
                    if (Files.exists(err)) {
                        Matcher matcher = Pattern.compile("Submitted application (" + APPLICATION.pattern() + ")").matcher(Files.readString(err));
                        if (matcher.find()) {
                            application = matcher.group(1);
                        }
                    }
                }
                return Optional.ofNullable(application);
            }

            /** The driver's stdout: spark-submit's in client mode, the AM container's in cluster mode. */
            String stdout(YarnCluster yarn)
                    throws IOException
            {
                if (deployMode.equals("client")) {
                    Path out = directory.resolve("driver.out");
                    return Files.exists(out) ? Files.readString(out) : "";
                }
                if (application == null) {
                    return "";
                }
                StringBuilder text = new StringBuilder();
                for (Path log : yarn.containerLogs(application, "stdout").values()) {
                    text.append(Files.readString(log));
                }
                return text.toString();
            }

            void executors(List<Long> pids)
            {
                this.executors = List.copyOf(pids);
                for (long pid : pids) {
                    Matcher matcher = CONTAINER.matcher(ProcFiles.commandLine(pid));
                    containers.put(pid, matcher.find() ? matcher.group() : "?");
                    executorMasks.put(pid, ProcFiles.threadMasks(pid));
                }
            }

            void am(String mainClass, long pid)
            {
                this.amClass = mainClass;
                this.amPid = pid;
                Matcher matcher = CONTAINER.matcher(ProcFiles.commandLine(pid));
                this.amContainer = matcher.find() ? matcher.group() : "?";
                this.amMasks = ProcFiles.threadMasks(pid);
            }

            void leaseHolders(Map<Integer, Long> holders)
            {
                this.holders = Map.copyOf(holders);
            }

            void finished(Result result, YarnCluster yarn)
                    throws IOException
            {
                this.result = result;
                this.stdout = stdout(yarn);
                Map<String, Path> stderr = yarn.containerLogs(application, "stderr");
                for (Map.Entry<String, Path> log : stderr.entrySet()) {
                    if (containers.containsValue(log.getKey())) {
                        executorLogs.put(log.getKey(), Files.readString(log.getValue()));
                    }
                }
                this.driverLog = deployMode.equals("client") ? result.driverLog()
                        : stderr.containsKey(amContainer) ? Files.readString(stderr.get(amContainer)) : "";
            }

            Run build()
            {
                return new Run(name, application, stdout, driverLog, java.util.Collections.unmodifiableMap(new TreeMap<>(executorLogs)), executors,
                        Map.copyOf(containers), Map.copyOf(executorMasks), amClass, amPid, amContainer, amMasks, holders, result);
            }
        }
    }
}
