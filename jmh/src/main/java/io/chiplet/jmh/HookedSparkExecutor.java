package io.chiplet.jmh;

import io.chiplet.spark.TaskHooks;
import io.chiplet.spark.placement.TaskPlacement;
import org.apache.spark.api.plugin.ExecutorPlugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The Spark plugin's executor side as the task-hook benchmarks drive it: started through {@link TaskHooks} on the
 * given settings with a lease directory of its own (so a real executor on this host is not disturbed), refused when
 * the plugin switched itself off (it would measure nothing: its warning says why), and on {@link #close()} shut down,
 * its lease directory removed, and refused when the hooks counted no task (they did not run through its placement).
 */
final class HookedSparkExecutor
        implements AutoCloseable
{
    private final TaskHooks.Started started;
    private final ExecutorPlugin plugin;
    private final Path leaseDir;

    private HookedSparkExecutor(TaskHooks.Started started, Path leaseDir)
    {
        this.started = started;
        this.plugin = started.plugin();
        this.leaseDir = leaseDir;
    }

    /**
     * @param settings {@code spark.chiplet.*} settings beside the lease directory
     * @param currentTask the task the hooks see as running
     */
    static HookedSparkExecutor start(Map<String, String> settings, Supplier<TaskPlacement.TaskIdentity> currentTask)
            throws IOException
    {
        requireNonNull(settings, "settings is null");
        Path leaseDir = Files.createTempDirectory("chiplet-bench-leases");
        Map<String, String> conf = new HashMap<>(settings);
        conf.put("spark.chiplet.leaseDir", leaseDir.toString());
        TaskHooks.Started started = TaskHooks.start(conf, currentTask);
        if (started.tasksCounted() < 0) {
            started.plugin().shutdown();
            deleteLeases(leaseDir);
            throw new IllegalStateException("the chiplet plugin switched itself off with " + settings + "; see its warning");
        }
        return new HookedSparkExecutor(started, leaseDir);
    }

    /** {@code onTaskStart} then {@code onTaskSucceeded}, on the calling (task) thread: what the plugin adds to every task. */
    void startAndSucceedTask()
    {
        plugin.onTaskStart();
        plugin.onTaskSucceeded();
    }

    @Override
    public void close()
            throws IOException
    {
        long counted = started.tasksCounted();
        plugin.shutdown();
        deleteLeases(leaseDir);
        if (counted <= 0) {
            throw new IllegalStateException("the plugin counted no tasks: the hooks did not run through its placement");
        }
    }

    private static void deleteLeases(Path leaseDir)
            throws IOException
    {
        try (var files = Files.list(leaseDir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(leaseDir);
    }
}
