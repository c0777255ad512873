package io.chiplet.spark;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;

import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One executor's placement figures, published in Spark's metrics system (source
 * {@code plugin.io.chiplet.spark.ChipletPlugin}) and summarised in one log line at executor shutdown.
 * Counting is lock-free: it runs on every task thread.
 */
public final class PlacementMetrics
{
    private final AtomicLongArray tasksPerChiplet;
    private final LongAdder unplacedTasks = new LongAdder();
    private final LongAdder failedTasks = new LongAdder();
    // Written by the adaptive controller; 0 and NaN until one runs.
    private volatile int spread;
    private volatile double remoteAccessRate = Double.NaN;

    public PlacementMetrics(int chiplets)
    {
        if (chiplets < 1) {
            throw new IllegalArgumentException("chiplets must be at least 1: " + chiplets);
        }
        this.tasksPerChiplet = new AtomicLongArray(chiplets);
    }

    public int chiplets()
    {
        return tasksPerChiplet.length();
    }

    public void taskStarted(OptionalInt chiplet)
    {
        if (chiplet.isPresent() && chiplet.getAsInt() >= 0 && chiplet.getAsInt() < tasksPerChiplet.length()) {
            tasksPerChiplet.incrementAndGet(chiplet.getAsInt());
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

    public long tasksOn(int chiplet)
    {
        return tasksPerChiplet.get(chiplet);
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
        for (int chiplet = 0; chiplet < tasksPerChiplet.length(); chiplet++) {
            int id = chiplet;
            registry.register(MetricRegistry.name("tasks.chiplet", Integer.toString(id)), (Gauge<Long>) () -> tasksOn(id));
        }
        registry.register("spread", (Gauge<Integer>) () -> spread);
        registry.register("remoteAccessRate", (Gauge<Double>) () -> remoteAccessRate);
        registry.register("skew", (Gauge<Double>) this::skew);
    }

    public String summaryLine()
    {
        StringBuilder perChiplet = new StringBuilder();
        for (int chiplet = 0; chiplet < tasksPerChiplet.length(); chiplet++) {
            perChiplet.append(chiplet == 0 ? "" : " ").append(chiplet).append(':').append(tasksPerChiplet.get(chiplet));
        }
        return String.format(Locale.ROOT, "chiplet placement: %d tasks (%d unplaced, %d failed), per chiplet [%s], skew %s, spread %s, remote accesses per interval %s",
                tasks(), unplacedTasks(), failedTasks.sum(), perChiplet, format(skew()), spread == 0 ? "n/a" : Integer.toString(spread), format(remoteAccessRate));
    }

    private static String format(double value)
    {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }
}
