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
 * <p>The module is written into the executor's working directory, which {@code python -m} puts first on
 * {@code sys.path}, and this executor's {@code spark.python.daemon.module} is set to it: only on executors started
 * by a cluster manager (their working directory is their own; in local mode it is the user's), only where the user
 * has not set a daemon module, and only once the file is written, so a failure leaves Spark's own daemon.
 */
public final class PythonWorkerPlacement
{
    static final String DAEMON_MODULE = "spark.python.daemon.module";
    static final String MODULE = "chiplet_pyspark_daemon";
    static final String TASK_CPUS = "spark.chiplet.task.cpus";

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

    /**
     * Installs the daemon module for this executor, or says (at INFO) why Python workers stay where Spark puts them.
     *
     * @param javaCommand this JVM's {@code sun.java.command}: only an executor backend installs
     * @param workDir the executor's working directory, the daemon's too
     */
    public static PythonWorkerPlacement install(SparkConf conf, String javaCommand, Path workDir)
    {
        requireNonNull(conf, "conf is null");
        requireNonNull(workDir, "workDir is null");
        if (javaCommand == null || !javaCommand.contains("ExecutorBackend")) {
            log.info("Chiplet plugin leaves PySpark workers alone: not a cluster executor (in local mode the Python daemon starts in the driver's working directory)");
            return off();
        }
        if (conf.contains(DAEMON_MODULE)) {
            log.info("Chiplet plugin leaves PySpark workers alone: {} = {} is set by the user", DAEMON_MODULE, conf.get(DAEMON_MODULE));
            return off();
        }
        try (InputStream module = PythonWorkerPlacement.class.getResourceAsStream("python/" + MODULE + ".py")) {
            if (module == null) {
                throw new IllegalStateException("python/" + MODULE + ".py is missing from the plugin jar");
            }
            Path target = workDir.resolve(MODULE + ".py");
            Path partial = workDir.resolve(MODULE + ".py.partial");
            Files.copy(module, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            conf.set(DAEMON_MODULE, MODULE);
            log.info("Chiplet plugin places PySpark workers like their tasks: {} = {} ({})", DAEMON_MODULE, MODULE, target.toAbsolutePath());
            return new PythonWorkerPlacement(true);
        }
        catch (IOException | UncheckedIOException | IllegalStateException e) {
            log.warn("Chiplet plugin leaves PySpark workers where Spark puts them: cannot write {}.py into the executor's working directory {}: {}", MODULE, workDir.toAbsolutePath(), e.toString());
            return off();
        }
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
