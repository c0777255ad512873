package io.chiplet.spark.placement;

import com.codahale.metrics.Gauge;
import io.chiplet.nativeio.NativeAccess;
import com.codahale.metrics.MetricRegistry;

import io.chiplet.perf.SignalSource;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One executor's placement figures, published in Spark's metrics system (source
 * {@code plugin.io.chiplet.spark.ChipletPlugin}) and summarised in one log line at executor shutdown.
 * Counting is lock-free: it runs on every task thread.
 */
public final class PlacementMetrics
{
    // Chiplet ids as the topology numbers them (ids need not be 0..n-1 once a snapshot is cut to the live CPUs).
    private final int[] chipletIds;
    private final int[] indexOfId;
    private final AtomicLongArray tasksPerChiplet;
    private final LongAdder unplacedTasks = new LongAdder();
    private final LongAdder failedTasks = new LongAdder();
    private final LongAdder cpusetChanges = new LongAdder();
    // Written by the adaptive controller; 0 and NaN until one runs.
    private volatile int spread;
    private volatile double remoteAccessRate = Double.NaN;
    private volatile String signalSource = "n/a";

    /** Chiplets numbered 0 to {@code chiplets - 1}. */
    public PlacementMetrics(int chiplets)
    {
        this(IntStream.range(0, chiplets).boxed().toList());
    }

    public PlacementMetrics(List<Integer> chipletIds)
    {
        if (chipletIds.isEmpty()) {
            throw new IllegalArgumentException("expected at least one chiplet");
        }
        this.chipletIds = chipletIds.stream().mapToInt(Integer::intValue).toArray();
        int maxId = Arrays.stream(this.chipletIds).max().getAsInt();
        if (Arrays.stream(this.chipletIds).min().getAsInt() < 0 || maxId > 1 << 16) {
            throw new IllegalArgumentException("chiplet ids must be between 0 and 65536: " + chipletIds);
        }
        this.indexOfId = new int[maxId + 1];
        Arrays.fill(indexOfId, -1);
        for (int index = 0; index < this.chipletIds.length; index++) {
            indexOfId[this.chipletIds[index]] = index;
        }
        this.tasksPerChiplet = new AtomicLongArray(this.chipletIds.length);
    }

    /** The chiplet ids this executor counts tasks on. */
    public List<Integer> chipletIds()
    {
        return Arrays.stream(chipletIds).boxed().toList();
    }

    public long failedTasks()
    {
        return failedTasks.sum();
    }

    public int chiplets()
    {
        return tasksPerChiplet.length();
    }

    public void taskStarted(OptionalInt chiplet)
    {
        int id = chiplet.orElse(-1);
        if (id >= 0 && id < indexOfId.length && indexOfId[id] >= 0) {
            tasksPerChiplet.incrementAndGet(indexOfId[id]);
        }
        else {
            unplacedTasks.increment();
        }
    }

    public void taskFailed()
    {
        failedTasks.increment();
    }

    public void spread(int chiplets)
    {
        this.spread = chiplets;
    }

    public void remoteAccessRate(double perInterval)
    {
        this.remoteAccessRate = perInterval;
    }

    /** Where the adaptive policy's signal comes from: hardware counters or the software fallback. */
    public void signalSource(SignalSource source)
    {
        this.signalSource = source.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Tasks started on the chiplet with this id. */
    public long tasksOn(int chiplet)
    {
        return chiplet >= 0 && chiplet < indexOfId.length && indexOfId[chiplet] >= 0 ? tasksPerChiplet.get(indexOfId[chiplet]) : 0;
    }

    public int spread()
    {
        return spread;
    }

    public double remoteAccessRate()
    {
        return remoteAccessRate;
    }

    public String signalSource()
    {
        return signalSource;
    }

    /** The process's allowed CPUs changed and the tasks were placed anew. */
    public void cpusetChanged()
    {
        cpusetChanges.increment();
    }

    public long cpusetChanges()
    {
        return cpusetChanges.sum();
    }

    public long unplacedTasks()
    {
        return unplacedTasks.sum();
    }

    public long tasks()
    {
        long tasks = unplacedTasks.sum();
        for (int chiplet = 0; chiplet < tasksPerChiplet.length(); chiplet++) {
            tasks += tasksPerChiplet.get(chiplet);
        }
        return tasks;
    }

    /** The busiest chiplet's task count over the mean: 1.0 is an even spread; NaN before any task was placed. */
    public double skew()
    {
        long max = 0;
        long sum = 0;
        for (int chiplet = 0; chiplet < tasksPerChiplet.length(); chiplet++) {
            long tasks = tasksPerChiplet.get(chiplet);
            max = Math.max(max, tasks);
            sum += tasks;
        }
        return sum == 0 ? Double.NaN : max * (double) tasksPerChiplet.length() / sum;
    }

    public void register(MetricRegistry registry)
    {
        registry.register("tasks", (Gauge<Long>) this::tasks);
        registry.register("tasks.unplaced", (Gauge<Long>) this::unplacedTasks);
        registry.register("tasks.failed", (Gauge<Long>) failedTasks::sum);
        registry.register("cpuset.changes", (Gauge<Long>) cpusetChanges::sum);
        for (int id : chipletIds) {
            registry.register(MetricRegistry.name("tasks.chiplet", Integer.toString(id)), (Gauge<Long>) () -> tasksOn(id));
        }
        registry.register("spread", (Gauge<Integer>) () -> spread);
        registry.register("remoteAccessRate", (Gauge<Double>) () -> remoteAccessRate);
        registry.register("remoteAccessSignal", (Gauge<String>) () -> signalSource);
        registry.register("skew", (Gauge<Double>) this::skew);
        // How this JVM reaches the kernel (ffm, jna or none), and why: the same line chiplet doctor prints.
        registry.register("nativePath", (Gauge<String>) () -> NativeAccess.path().toString());
    }

    public String summaryLine()
    {
        StringBuilder perChiplet = new StringBuilder();
        for (int chiplet = 0; chiplet < tasksPerChiplet.length(); chiplet++) {
            perChiplet.append(chiplet == 0 ? "" : " ").append(chipletIds[chiplet]).append(':').append(tasksPerChiplet.get(chiplet));
        }
        return String.format(Locale.ROOT, "chiplet placement: %d tasks (%d unplaced, %d failed), per chiplet [%s], skew %s, spread %s, remote accesses per interval %s (signal %s)",
                tasks(), unplacedTasks(), failedTasks.sum(), perChiplet, format(skew()), spread == 0 ? "n/a" : Integer.toString(spread), format(remoteAccessRate), signalSource);
    }

    private static String format(double value)
    {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }
}
