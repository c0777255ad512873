package io.chiplet.spark.placement;

import io.chiplet.topology.CpuSet;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * PySpark workers placed like the task they serve. Spark starts one {@code pyspark.daemon} per executor from the
 * first task thread that needs Python, and the daemon forks every worker, so all of them would inherit that one
 * pinned thread's mask. Instead the executor runs our daemon module ({@code chiplet_pyspark_daemon.py}, shipped in
 * the plugin jar): the daemon takes the executor JVM's own mask, and each worker, per task, the CPUs of its JVM
 * task thread, which {@link #onTaskStart} puts in the task's local property {@value #TASK_CPUS} (local properties
 * reach the Python worker's {@code TaskContext}).
 *
 * <p>Spark runs {@code python -m <spark.python.daemon.module>}, so a module Python cannot import fails every task
 * that needs Python. Spark is handed ours only where that cannot happen:
 * <ul>
 * <li>only on executors started by a cluster manager (in local mode the daemon starts in the user's directory);</li>
 * <li>only where the user has set no daemon module;</li>
 * <li>only where Spark starts the daemon in the executor's working directory, where the module is written
 * ({@code python -m} puts the working directory first on {@code sys.path}). Spark 3.5 to 4.3
 * ({@code PythonWorkerFactory}) start it in {@code <SparkFiles root>/<job artifact UUID>} instead for sessions with
 * isolated artifacts (Spark Connect), a directory made when the session's first Python task starts, under a name
 * nobody knows earlier: where the driver says sessions may be isolated, Spark's own daemon stays;</li>
 * <li>only once {@code python -m chiplet_pyspark_daemon --probe} succeeded in that directory with the environment
 * Spark gives the daemon ({@link #daemonEnvironment}), which imports both our module and {@code pyspark.daemon}.</li>
 * </ul>
 * Inside the daemon, any failure of ours before it serves runs Spark's {@code pyspark.daemon} instead, and a failure
 * to place a worker leaves the worker where it is: a task never fails over placement.
 */
public final class PythonWorkerPlacement
{
    static final String DAEMON_MODULE = "spark.python.daemon.module";
    static final String MODULE = "chiplet_pyspark_daemon";
    static final String TASK_CPUS = "spark.chiplet.task.cpus";
    /** Python probes get this long; an executor starts in seconds, and a slower Python is not proven. */
    static final long PROBE_TIMEOUT_SECONDS = 20;

    private static final Logger log = LoggerFactory.getLogger(PythonWorkerPlacement.class);

    private volatile boolean active;

    private PythonWorkerPlacement(boolean active)
    {
        this.active = active;
    }

    public static PythonWorkerPlacement off()
    {
        return new PythonWorkerPlacement(false);
    }

    /** {@link #install(SparkConf, String, Path, Optional, Map, PythonDaemonProbe)} with this process's environment and a real probe. */
    public static PythonWorkerPlacement install(SparkConf conf, String javaCommand, Path workDir, Optional<String> isolatedSessions)
    {
        return install(conf, javaCommand, workDir, isolatedSessions, System.getenv(), PythonDaemonProbe.process(PROBE_TIMEOUT_SECONDS));
    }

    /**
     * Installs the daemon module for this executor, or says (at INFO) why Python workers stay where Spark puts them.
     *
     * @param javaCommand this JVM's {@code sun.java.command}: only an executor backend installs
     * @param workDir the executor's working directory, the daemon's too
     * @param isolatedSessions why the driver expects session-isolated Python daemons, if it does
     * @param processEnvironment this executor's environment, which Spark passes on to the daemon
     */
    public static PythonWorkerPlacement install(SparkConf conf, String javaCommand, Path workDir, Optional<String> isolatedSessions,
            Map<String, String> processEnvironment, PythonDaemonProbe probe)
    {
        requireNonNull(conf, "conf is null");
        requireNonNull(workDir, "workDir is null");
        requireNonNull(isolatedSessions, "isolatedSessions is null");
        requireNonNull(processEnvironment, "processEnvironment is null");
        requireNonNull(probe, "probe is null");
        if (javaCommand == null || !javaCommand.contains("ExecutorBackend")) {
            log.info("Chiplet plugin leaves PySpark workers alone: not a cluster executor (in local mode the Python daemon starts in the driver's working directory)");
            return off();
        }
        if (conf.contains(DAEMON_MODULE)) {
            log.info("Chiplet plugin leaves PySpark workers alone: {} = {} is set by the user", DAEMON_MODULE, conf.get(DAEMON_MODULE));
            return off();
        }
        if (isolatedSessions.isPresent()) {
            log.info("Chiplet plugin leaves PySpark workers to Spark's own daemon: {}, and Spark starts a session's Python daemon in a directory of that session", isolatedSessions.get());
            return off();
        }
        Path target = workDir.resolve(MODULE + ".py");
        try (InputStream module = PythonWorkerPlacement.class.getResourceAsStream("python/" + MODULE + ".py")) {
            if (module == null) {
                throw new IllegalStateException("python/" + MODULE + ".py is missing from the plugin jar");
            }
            Path partial = workDir.resolve(MODULE + ".py.partial");
            Files.copy(module, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException | UncheckedIOException | IllegalStateException e) {
            log.warn("Chiplet plugin leaves PySpark workers where Spark puts them: cannot write {}.py into the executor's working directory {}: {}", MODULE, workDir.toAbsolutePath(), e.toString());
            return off();
        }
        String python = pythonExecutable(conf, processEnvironment);
        Optional<String> refuted = probe.refute(python, MODULE, workDir, daemonEnvironment(conf, processEnvironment));
        if (refuted.isPresent()) {
            log.warn("Chiplet plugin leaves PySpark workers to Spark's own daemon: {} cannot run {} from {}: {}", python, MODULE, workDir.toAbsolutePath(), refuted.get());
            return off();
        }
        conf.set(DAEMON_MODULE, MODULE);
        log.info("Chiplet plugin places PySpark workers like their tasks: {} = {} ({}, proven to load with {})", DAEMON_MODULE, MODULE, target.toAbsolutePath(), python);
        quietSparksDaemonModuleLine();
        return new PythonWorkerPlacement(true);
    }

    /**
     * Spark 4.x logs "Python daemon module in PySpark is set to [...]" at INFO for every Python task once the module is
     * set: the first stays, its repeats go. Where that cannot be done (another logging backend) Spark's lines stay as
     * they are.
     */
    static void quietSparksDaemonModuleLine()
    {
        try {
            if (!SparkLogOnce.install(DAEMON_MODULE_LINE)) {
                log.debug("Chiplet plugin leaves Spark's per-task daemon module line alone: Spark does not log through log4j 2 here");
            }
        }
        catch (LinkageError | RuntimeException e) {
            log.debug("Chiplet plugin leaves Spark's per-task daemon module line alone: {}", e.toString());
        }
    }

    /** The start of the line Spark logs for each Python task once {@code spark.python.daemon.module} is ours. */
    static final String DAEMON_MODULE_LINE = "Python daemon module in PySpark is set to [" + MODULE + "]";

    /** The Python Spark runs on executors: {@code spark.pyspark.python}, else {@code PYSPARK_PYTHON}, else {@code python3}. */
    static String pythonExecutable(SparkConf conf, Map<String, String> environment)
    {
        String configured = conf.get("spark.pyspark.python", "");
        if (!configured.isBlank()) {
            return configured;
        }
        return environment.getOrDefault("PYSPARK_PYTHON", "python3");
    }

    /**
     * The daemon's environment as Spark's {@code PythonWorkerFactory} makes it: the executor's own, the
     * application's {@code spark.executorEnv.*} (which PySpark passes with every function), and {@code PYTHONPATH}
     * merged from {@code SPARK_HOME}'s Python archives, the function's and the executor's.
     */
    static Map<String, String> daemonEnvironment(SparkConf conf, Map<String, String> processEnvironment)
    {
        Map<String, String> environment = new LinkedHashMap<>(processEnvironment);
        Map<String, String> functionEnvironment = new LinkedHashMap<>();
        for (scala.Tuple2<String, String> entry : conf.getAllWithPrefix("spark.executorEnv.")) {
            functionEnvironment.put(entry._1(), entry._2());
        }
        environment.putAll(functionEnvironment);
        List<String> pythonPath = new ArrayList<>();
        String sparkHome = processEnvironment.get("SPARK_HOME");
        if (sparkHome != null) {
            Path lib = Path.of(sparkHome, "python", "lib");
            pythonPath.add(lib.resolve("pyspark.zip").toString());
            try (var archives = Files.list(lib)) {
                archives.map(Path::toString).filter(name -> name.contains("py4j") && name.endsWith(".zip")).sorted().forEach(pythonPath::add);
            }
            catch (IOException | UncheckedIOException e) {
                // A pip-installed Spark has no python/lib: PySpark comes from the Python environment.
            }
        }
        pythonPath.add(functionEnvironment.getOrDefault("PYTHONPATH", ""));
        pythonPath.add(processEnvironment.getOrDefault("PYTHONPATH", ""));
        environment.put("PYTHONPATH", String.join(java.io.File.pathSeparator, pythonPath.stream().filter(entry -> !entry.isEmpty()).toList()));
        return environment;
    }

    boolean active()
    {
        return active;
    }

    /** On the task's thread, after it was placed: tells the task's Python worker where its JVM thread runs. */
    public void onTaskStart(Optional<CpuSet> cpus)
    {
        if (!active || cpus.isEmpty()) {
            return;
        }
        try {
            TaskContext task = TaskContext.get();
            if (task != null) {
                // private[spark] in Scala, public in the byte code; checked on Spark 3.5 to 4.3.
                task.getLocalProperties().setProperty(TASK_CPUS, cpus.get().toList());
            }
        }
        catch (RuntimeException | LinkageError e) {
            active = false;
            log.warn("Chiplet plugin stops placing PySpark workers per task (they keep the executor's CPUs): {}", e.toString());
        }
    }
}
