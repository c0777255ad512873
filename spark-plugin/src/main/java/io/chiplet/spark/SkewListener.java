package io.chiplet.spark;

import org.apache.spark.Success$;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Feeds {@link StageSkew} from Spark's listener bus: each successful task's input, and the stage boundaries. Runs on
 * the bus thread; a failure here must not disturb Spark's other listeners, so each event is guarded.
 */
final class SkewListener
        extends SparkListener
{
    private static final Logger log = LoggerFactory.getLogger(SkewListener.class);

    private final StageSkew skew;
    private final FailOpen guard;

    SkewListener(StageSkew skew, FailOpen guard)
    {
        this.skew = requireNonNull(skew, "skew is null");
        this.guard = requireNonNull(guard, "guard is null");
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted event)
    {
        guard.run("skew listener", () -> skew.stageSubmitted(event.stageInfo().stageId()));
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd event)
    {
        guard.run("skew listener", () -> {
            TaskMetrics metrics = event.taskMetrics();
            if (metrics == null || event.reason() != Success$.MODULE$) {
                return;
            }
            long bytes = metrics.shuffleReadMetrics().totalBytesRead() + metrics.inputMetrics().bytesRead();
            long records = metrics.shuffleReadMetrics().recordsRead() + metrics.inputMetrics().recordsRead();
            skew.taskEnded(event.stageId(), event.taskInfo().partitionId(), Math.max(0, bytes), Math.max(0, records));
        });
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted event)
    {
        guard.run("skew listener", () -> skew.stageCompleted(event.stageInfo().stageId()).ifPresent(report -> {
            if (report.skew().isSkewed()) {
                log.info(String.format(Locale.ROOT, "Chiplet plugin: stage %d was skewed, largest task input %.1f x the median (gini %.2f, %d tasks, by %s)",
                        report.stageId(), report.skew().maxOverMedian(), report.skew().gini(), report.skew().partitions(), report.inBytes() ? "bytes" : "records"));
            }
        }));
    }
}
