package io.chiplet.spark.driver;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.SpreadHintRequest;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.skew.SkewListener;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.spark.skew.StageSkewTracker;
import org.apache.spark.Success$;
import org.apache.spark.TaskKilled;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.apache.spark.storage.RDDInfo;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** Spark's own listener events in, the driver's spread hints out. */
class SkewListenerTest
{
    private static final long MIB = 1L << 20;
    private static final long L3 = 32 * MIB;

    private final StageSkewTracker skew = new StageSkewTracker();
    // The map output of shuffles 0 and 1; no other shuffle's sizes can be read.
    private final Map<Integer, long[]> mapOutput = Map.of(0, new long[] {10, 10, 10, 50}, 1, new long[] {5, 5, 5, 5});
    private final List<Integer> shufflesRead = new ArrayList<>();
    private final SkewListener listener = new SkewListener(skew, new FailOpenGuard(LoggerFactory.getLogger(SkewListenerTest.class), "test"), (shuffle, partitions) -> {
        shufflesRead.add(shuffle);
        return Optional.ofNullable(mapOutput.get(shuffle)).filter(bytes -> bytes.length == partitions);
    });

    @Test
    void skewedShuffleReadsMakeTheDriverSpreadThatStage()
    {
        ChipletDriverPlugin driver = new ChipletDriverPlugin(skew);
        driver.init(null, new FakePluginContext(Map.of(), message -> null));
        driver.receive(PluginMessages.encode(new TopologyReport("1", "host-a", PlacementMode.TASK, new PartitionBasis(4, 32, 4 * MIB, 32 * MIB), false)));

        listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(5), new Properties()));
        for (int partition = 0; partition < 8; partition++) {
            listener.onTaskEnd(taskEnd(5, partition, partition == 7 ? 300 * MIB : 100 * MIB, true));
        }
        // A killed attempt's partial input does not count.
        listener.onTaskEnd(taskEnd(5, 8, 5 * 100 * MIB, false));

        assertThat(PluginMessages.decode(driver.receive(PluginMessages.encode(new SpreadHintRequest("1"))))).isEqualTo(new SpreadHints(Map.of(5, 3)));

        listener.onStageCompleted(new SparkListenerStageCompleted(stage(5)));
        assertThat(PluginMessages.decode(driver.receive(PluginMessages.encode(new SpreadHintRequest("1"))))).isEqualTo(SpreadHints.NONE);
    }

    @Test
    void evenSmallInputsConsolidate()
    {
        listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(2), new Properties()));
        for (int partition = 0; partition < 6; partition++) {
            listener.onTaskEnd(taskEnd(2, partition, MIB, true));
        }
        assertThat(skew.hints(4, 32 * MIB)).isEqualTo(new SpreadHints(Map.of(2, 1)));
    }

    @Test
    void aStageReadingAShuffleIsSizedFromItsMapOutputWhenSubmitted()
    {
        // Stage 0 writes shuffle 0 from RDD 1 (over RDD 0); stage 1 reads it with RDD 2 (4 partitions), maps it to RDD 3.
        listener.onStageSubmitted(submitted(mapStage(0, 0, 1), new Properties()));
        listener.onStageCompleted(new SparkListenerStageCompleted(mapStage(0, 0, 1)));
        assertThat(skew.hints(8, L3)).isEqualTo(SpreadHints.NONE);

        listener.onStageSubmitted(submitted(readingStage(1, 4, List.of(0), rdd(2, 4, 1), rdd(3, 4, 2)), new Properties()));
        assertThat(skew.hints(8, L3)).isEqualTo(new SpreadHints(Map.of(1, 5)));
        assertThat(skew.report(1)).hasValueSatisfying(report -> assertThat(report.predicted()).isEqualTo(4));

        // The tasks refine it: partition 3 read as little as the others.
        listener.onTaskEnd(taskEnd(1, 3, 10, true));
        assertThat(skew.hints(8, L3)).isEqualTo(new SpreadHints(Map.of(1, 1)));
    }

    @Test
    void aShuffleAnEarlierJobWroteIsKnownFromTheJobsStages()
    {
        // The second job over the same shuffle gets a new map stage (7) for it, which it skips: never submitted.
        StageInfo skipped = mapStage(7, 0, 1);
        StageInfo reading = readingStage(8, 4, List.of(7), rdd(2, 4, 1));
        listener.onJobStart(new SparkListenerJobStart(1, 0L, seq(List.of(skipped, reading)), new Properties()));
        listener.onStageSubmitted(submitted(reading, new Properties()));
        assertThat(skew.report(8)).hasValueSatisfying(report -> assertThat(report.predicted()).isEqualTo(4));
        assertThat(shufflesRead).containsExactly(0);
    }

    @Test
    void aJoinAddsTheMapOutputOfBothSides()
    {
        listener.onStageSubmitted(submitted(mapStage(0, 0, 1), new Properties()));
        listener.onStageSubmitted(submitted(mapStage(1, 1, 11), new Properties()));
        // RDDs 2 and 12 read shuffles 0 and 1; RDD 3 zips them.
        listener.onStageSubmitted(submitted(readingStage(2, 4, List.of(0, 1), rdd(2, 4, 1), rdd(12, 4, 11), rdd(3, 4, 2, 12)), null));
        assertThat(skew.report(2)).hasValueSatisfying(report -> {
            assertThat(report.skew().totalBytes()).isEqualTo(80 + 20);
            assertThat(report.skew().maxBytes()).isEqualTo(55);
        });
        assertThat(shufflesRead).containsExactly(0, 1);
    }

    @Test
    void noPredictionWherePartitionIIsNotReducePartitionIOrTheSizesAreUnknown()
    {
        listener.onStageSubmitted(submitted(mapStage(0, 0, 1), new Properties()));
        listener.onStageSubmitted(submitted(mapStage(5, 2, 51), new Properties()));
        // a coalesce of the shuffle read: 2 tasks over 4 reduce partitions
        listener.onStageSubmitted(submitted(readingStage(10, 2, List.of(0), rdd(2, 4, 1), rdd(3, 2, 2)), new Properties()));
        // some partitions only (take, a retried attempt)
        listener.onStageSubmitted(submitted(readingStage(11, 2, List.of(0), rdd(2, 4, 1), rdd(3, 4, 2)), new Properties()));
        // a union of two shuffle reads
        listener.onStageSubmitted(submitted(readingStage(12, 4, List.of(0), rdd(2, 2, 1), rdd(4, 2, 1), rdd(3, 4, 2, 4)), new Properties()));
        // a parent stage never seen
        listener.onStageSubmitted(submitted(readingStage(13, 4, List.of(99), rdd(2, 4, 1)), new Properties()));
        // a shuffle whose sizes cannot be read
        listener.onStageSubmitted(submitted(readingStage(14, 4, List.of(5), rdd(2, 4, 51)), new Properties()));
        // a SQL stage under adaptive execution, which may read coalesced or split partitions
        Properties adaptive = new Properties();
        adaptive.setProperty("spark.sql.execution.id", "3");
        listener.onStageSubmitted(submitted(readingStage(15, 4, List.of(0), rdd(2, 4, 1)), adaptive));

        assertThat(skew.hints(8, L3)).isEqualTo(SpreadHints.NONE);
        assertThat(shufflesRead).containsExactly(2);
        // each stage is still measured from its tasks
        for (int partition = 0; partition < 4; partition++) {
            listener.onTaskEnd(taskEnd(15, partition, MIB, true));
        }
        assertThat(skew.hints(8, L3)).isEqualTo(new SpreadHints(Map.of(15, 1)));

        // The same SQL stage with adaptive execution off is predicted.
        adaptive.setProperty("spark.sql.adaptive.enabled", "false");
        listener.onStageSubmitted(submitted(readingStage(16, 4, List.of(0), rdd(2, 4, 1)), adaptive));
        assertThat(skew.report(16)).hasValueSatisfying(report -> assertThat(report.predicted()).isEqualTo(4));
    }

    @Test
    void sparkSqlUnderAdaptiveExecutionIsRecognised()
    {
        Properties properties = new Properties();
        assertThat(SkewListener.adaptiveSql(null)).isFalse();
        assertThat(SkewListener.adaptiveSql(properties)).isFalse();
        properties.setProperty("spark.sql.execution.id", "0");
        assertThat(SkewListener.adaptiveSql(properties)).isTrue();
        properties.setProperty("spark.sql.adaptive.enabled", "TRUE");
        assertThat(SkewListener.adaptiveSql(properties)).isTrue();
        properties.setProperty("spark.sql.adaptive.enabled", " false");
        assertThat(SkewListener.adaptiveSql(properties)).isFalse();
    }

    private static SparkListenerStageSubmitted submitted(StageInfo stage, Properties properties)
    {
        return new SparkListenerStageSubmitted(stage, properties);
    }

    /** A map stage writing {@code shuffle} from RDD {@code rdd}, over a source RDD of its own. */
    private static StageInfo mapStage(int id, int shuffle, int rdd)
    {
        return new StageInfo(id, 0, "map " + id, 3, seq(List.of(rdd(rdd, 3, rdd - 1), rdd(rdd - 1, 3))), emptySeq(), "", TaskMetrics.empty(), emptySeq(), Option.<Object>apply(shuffle), 0, false, 0);
    }

    private static StageInfo readingStage(int id, int tasks, List<Integer> parents, RDDInfo... rdds)
    {
        return new StageInfo(id, 0, "read " + id, tasks, seq(List.of(rdds)), seq(List.<Object>copyOf(parents)), "", TaskMetrics.empty(), emptySeq(), Option.empty(), 0, false, 0);
    }

    private static RDDInfo rdd(int id, int partitions, Integer... parents)
    {
        return new RDDInfo(id, "rdd " + id, partitions, StorageLevel.NONE(), false, seq(List.<Object>of((Object[]) parents)), "", Option.empty(), RDDInfo.$lessinit$greater$default$9());
    }

    private static SparkListenerTaskEnd taskEnd(int stage, int partition, long shuffleBytes, boolean succeeded)
    {
        TaskMetrics metrics = TaskMetrics.empty();
        metrics.inputMetrics().incBytesRead(shuffleBytes);
        metrics.inputMetrics().incRecordsRead(shuffleBytes / 100);
        TaskInfo info = new TaskInfo(1000L + partition, partition, 0, partition, 0L, "1", "host-a", TaskLocality.PROCESS_LOCAL(), false);
        return new SparkListenerTaskEnd(stage, 0, "ResultTask", succeeded ? Success$.MODULE$ : new TaskKilled("test", emptySeq(), emptySeq(), emptySeq()), info, null, metrics);
    }

    private static StageInfo stage(int id)
    {
        return new StageInfo(id, 0, "stage " + id, 8, emptySeq(), emptySeq(), "", TaskMetrics.empty(), emptySeq(), Option.empty(), 0, false, 0);
    }

    private static <T> Seq<T> emptySeq()
    {
        return seq(List.of());
    }

    private static <T> Seq<T> seq(List<T> values)
    {
        return CollectionConverters.asScala(values).toSeq();
    }
}
