package io.chiplet.spark.skew;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.Success$;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.storage.RDDInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Feeds {@link StageSkewTracker} from Spark's listener bus: the stage boundaries, each successful task's input, and, when a
 * stage that reads shuffles is submitted, the sizes of the partitions it will read (the map output of its parent
 * stages), so its hint exists before any of its tasks runs.
 *
 * <p>A stage's parents ({@link StageInfo#parentIds()}) are the map stages of the shuffles it reads; a map stage names
 * its shuffle ({@link StageInfo#shuffleDepId()}). A job announces all its stages when it starts, those it will skip
 * included: a later job (or adaptive execution's next one) that reuses a shuffle gets a new map stage for it, never
 * submitted, whose output an earlier job wrote. The sizes are read when the reading stage is submitted rather than
 * when each map stage completes: its parents are complete by then, so the sizes are the same, nothing has to be kept
 * per shuffle, and a shuffle an earlier job wrote counts too.
 *
 * <p>Runs on the bus thread, the only one that touches its state; a failure here must not disturb Spark's other
 * listeners, so each event is guarded.
 */
public final class SkewListener
        extends SparkListener
{
    /** The bytes each reduce partition of a finished shuffle holds. */
    @FunctionalInterface
    public interface ShuffleSizes
    {
        /**
         * @param partitions the shuffle's reduce partitions
         * @return empty where the sizes cannot be read (the shuffle is gone, an output is missing, reading is off)
         */
        Optional<long[]> bytesByPartition(int shuffleId, int partitions);
    }

    /** Map stages remembered (a few hundred kilobytes); the least recently read are forgotten first. */
    static final int MAX_MAP_STAGES = 4096;

    private static final Logger log = LoggerFactory.getLogger(SkewListener.class);

    private final StageSkewTracker skew;
    private final FailOpenGuard guard;
    private final ShuffleSizes shuffleSizes;
    private final Map<Integer, Integer> shuffleByMapStage = new LinkedHashMap<>(16, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Integer> eldest)
        {
            return size() > MAX_MAP_STAGES;
        }
    };

    public SkewListener(StageSkewTracker skew, FailOpenGuard guard, ShuffleSizes shuffleSizes)
    {
        this.skew = requireNonNull(skew, "skew is null");
        this.guard = requireNonNull(guard, "guard is null");
        this.shuffleSizes = requireNonNull(shuffleSizes, "shuffleSizes is null");
    }

    @Override
    public void onJobStart(SparkListenerJobStart event)
    {
        guard.run("skew listener", () -> ScalaSeqs.elements(event, "stageInfos", StageInfo.class).forEach(this::rememberShuffle));
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted event)
    {
        guard.run("skew listener", () -> {
            StageInfo stage = event.stageInfo();
            // Also here: the bus drops events when it falls behind, a job's start among them.
            rememberShuffle(stage);
            Optional<long[]> predicted = predictedInput(stage, event.properties());
            if (predicted.isEmpty()) {
                skew.stageSubmitted(stage.stageId());
                return;
            }
            skew.stageSubmitted(stage.stageId(), predicted.get());
            skew.report(stage.stageId()).filter(report -> report.skew().isSkewed()).ifPresent(report ->
                    log.info(String.format(Locale.ROOT, "Chiplet plugin: stage %d reads skewed shuffle output, largest partition %.1f x the median (gini %.2f, %d partitions, from map-output sizes)",
                            report.stageId(), report.skew().maxOverMedian(), report.skew().gini(), report.skew().partitions())));
        });
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

    private void rememberShuffle(StageInfo stage)
    {
        if (stage.shuffleDepId().isDefined()) {
            shuffleByMapStage.put(stage.stageId(), (Integer) stage.shuffleDepId().get());
        }
    }

    /**
     * The bytes each partition of the stage will read: the sum over the shuffles it reads of their map output for
     * that partition. Empty where the stage reads no shuffle, where its partition {@code i} may not be reduce
     * partition {@code i} of each ({@link #readsWholeShuffles}, {@link #adaptiveSql}), or where a parent's sizes are
     * unknown.
     */
    private Optional<long[]> predictedInput(StageInfo stage, Properties properties)
    {
        List<Integer> parents = ScalaSeqs.elements(stage, "parentIds", Integer.class);
        if (parents.isEmpty() || adaptiveSql(properties) || !readsWholeShuffles(stage)) {
            return Optional.empty();
        }
        int partitions = stage.numTasks();
        long[] total = new long[partitions];
        for (int parent : parents) {
            Integer shuffle = shuffleByMapStage.get(parent);
            if (shuffle == null) {
                return Optional.empty();
            }
            Optional<long[]> bytes = shuffleSizes.bytesByPartition(shuffle, partitions);
            if (bytes.isEmpty() || bytes.get().length != partitions) {
                return Optional.empty();
            }
            for (int partition = 0; partition < partitions; partition++) {
                total[partition] += bytes.get()[partition];
            }
        }
        return Optional.of(total);
    }

    /**
     * Whether the stage runs reduce partition {@code i} of each shuffle it reads as its partition {@code i}: every RDD
     * of the stage that reads a shuffle (has a parent outside the stage) and the stage's last RDD (no RDD of the stage
     * depends on it) have as many partitions as the stage has tasks. That holds for Spark's shuffled, co-grouped and
     * SQL exchange RDDs followed by per-partition work, and rules out a stage that runs only some partitions (take, a
     * retried attempt), a union of shuffle reads and a coalesce of one.
     */
    static boolean readsWholeShuffles(StageInfo stage)
    {
        int tasks = stage.numTasks();
        List<RDDInfo> rdds = ScalaSeqs.elements(stage, "rddInfos", RDDInfo.class);
        Set<Integer> inStage = new HashSet<>();
        rdds.forEach(rdd -> inStage.add(rdd.id()));
        Set<Integer> dependedOn = new HashSet<>();
        boolean readsShuffle = false;
        for (RDDInfo rdd : rdds) {
            for (int parent : ScalaSeqs.elements(rdd, "parentIds", Integer.class)) {
                if (inStage.contains(parent)) {
                    dependedOn.add(parent);
                }
                else if (rdd.numPartitions() == tasks) {
                    readsShuffle = true;
                }
                else {
                    return false;
                }
            }
        }
        for (RDDInfo rdd : rdds) {
            if (!dependedOn.contains(rdd.id()) && rdd.numPartitions() != tasks) {
                return false;
            }
        }
        return readsShuffle && tasks > 0;
    }

    /**
     * Whether a SQL stage runs under adaptive execution, whose shuffle reads may coalesce or split partitions in ways
     * its RDDs do not show; such a stage is sized by its tasks alone. Spark SQL passes the session's explicitly set
     * {@code spark.*} settings to its jobs as local properties; adaptive execution is on unless set false.
     */
    public static boolean adaptiveSql(Properties properties)
    {
        return properties != null
                && properties.getProperty("spark.sql.execution.id") != null
                && !"false".equalsIgnoreCase(properties.getProperty("spark.sql.adaptive.enabled", "true").trim());
    }
}
