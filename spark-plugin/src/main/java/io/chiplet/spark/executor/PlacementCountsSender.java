package io.chiplet.spark.executor;

import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.spark.placement.PlacementMetrics;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Sends an executor's placement counts and the places of its ended tasks to the driver, whose metrics and Chiplet tab
 * show them, every {@value #COUNTS_INTERVAL_SECONDS} s on a daemon thread; a lost message only delays the figures.
 */
final class PlacementCountsSender
{
    private static final long COUNTS_INTERVAL_SECONDS = 3;
    /** Unchanged counts are sent again only this often (a lost message is then made good): an idle executor sends nothing new. */
    private static final long UNCHANGED_COUNTS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final PluginContext context;
    private final PlacementMetrics metrics;
    private final TaskPlaceLog taskPlaces;
    private final Logger log;
    private final ScheduledExecutorService sender;
    // Only the counts' thread (and stop, after it stopped) touches these.
    private PlacementCounts lastCounts;
    private long lastCountsSentNanos;

    private PlacementCountsSender(PluginContext context, PlacementMetrics metrics, TaskPlaceLog taskPlaces, Logger log)
    {
        this.context = requireNonNull(context, "context is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.taskPlaces = requireNonNull(taskPlaces, "taskPlaces is null");
        this.log = requireNonNull(log, "log is null");
        this.sender = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-placement-counts");
            thread.setDaemon(true);
            return thread;
        });
    }

    static PlacementCountsSender start(PluginContext context, PlacementMetrics metrics, TaskPlaceLog taskPlaces, Logger log)
    {
        PlacementCountsSender started = new PlacementCountsSender(context, metrics, taskPlaces, log);
        started.sender.scheduleWithFixedDelay(() -> started.send(false), COUNTS_INTERVAL_SECONDS, COUNTS_INTERVAL_SECONDS, TimeUnit.SECONDS);
        return started;
    }

    /** Stops the thread and sends the counts once more, changed or not. */
    void stopAndSendLast()
    {
        sender.shutdownNow();
        send(true);
    }

    /** The counts where they changed (or {@code always}, and every 30 s unchanged), then the tasks ended since the last round. */
    private void send(boolean always)
    {
        try {
            PlacementCounts counts = PlacementCounts.of(context.executorID(), metrics);
            long now = System.nanoTime();
            // Not a return: whatever else this round sends goes on regardless.
            if (always || !counts.equals(lastCounts) || now - lastCountsSentNanos >= UNCHANGED_COUNTS_INTERVAL_NANOS) {
                lastCounts = counts;
                lastCountsSentNanos = now;
                context.send(PluginMessages.encode(counts));
            }
            TaskPlaces ended = taskPlaces.drain();
            if (!ended.isEmpty()) {
                context.send(PluginMessages.encode(ended));
            }
        }
        catch (Exception | LinkageError e) {
            log.debug("Chiplet plugin could not send its counts to the driver", e);
        }
    }
}
