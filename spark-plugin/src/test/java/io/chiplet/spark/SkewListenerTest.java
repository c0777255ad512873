package io.chiplet.spark;

import org.apache.spark.Success$;
import org.apache.spark.TaskKilled;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** Spark's own listener events in, the driver's spread hints out. */
class SkewListenerTest
{
    private static final long MIB = 1L << 20;

    private final StageSkew skew = new StageSkew();
    private final SkewListener listener = new SkewListener(skew, new FailOpen(LoggerFactory.getLogger(SkewListenerTest.class), "test"));

    @Test
    void skewedShuffleReadsMakeTheDriverSpreadThatStage()
    {
        ChipletDriverPlugin driver = new ChipletDriverPlugin(skew);
        driver.init(null, new FakePluginContext(Map.of(), message -> null));
        driver.receive(new TopologyReport("1", "host-a", PlacementMode.TASK, new ChipletSummary(4, 32 * MIB, 8)));

        listener.onStageSubmitted(new SparkListenerStageSubmitted(stage(5), new Properties()));
        for (int partition = 0; partition < 8; partition++) {
            listener.onTaskEnd(taskEnd(5, partition, partition == 7 ? 300 * MIB : 100 * MIB, true));
        }
        // A killed attempt's partial input does not count.
        listener.onTaskEnd(taskEnd(5, 8, 5 * 100 * MIB, false));

        assertThat(driver.receive(new SpreadHintRequest("1"))).isEqualTo(new SpreadHints(Map.of(5, 3)));

        listener.onStageCompleted(new SparkListenerStageCompleted(stage(5)));
        assertThat(driver.receive(new SpreadHintRequest("1"))).isEqualTo(SpreadHints.NONE);
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
        return CollectionConverters.asScala(List.<T>of()).toSeq();
    }
}
