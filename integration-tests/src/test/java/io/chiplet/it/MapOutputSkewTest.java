package io.chiplet.it;

import org.apache.logging.log4j.Level;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stage that reads a skewed shuffle is sized from the map output when it is submitted: the driver's line about it is
 * logged before the first of its tasks ends. Under adaptive execution, whose shuffle reads may coalesce partitions, the
 * driver waits for the tasks instead.
 */
class MapOutputSkewTest
{
    /** Key 0 holds 90% of the rows; the other 15 keys share the rest. */
    private static final String SKEWED_GROUPS = "SELECT key, size(collect_list(id)) AS n FROM (SELECT IF(id < 36000, 0, id % 16) AS key, id FROM range(0, 40000, 1, 4)) GROUP BY key";

    @Test
    void readingStageIsSizedFromMapOutputBeforeItsFirstTaskEnds()
            throws InterruptedException
    {
        try (LogCapture log = LogCapture.capture(Level.INFO)) {
            SparkSession spark = Spark.start(true, Map.of("spark.sql.shuffle.partitions", "8"));
            try {
                FirstTaskEnds listener = new FirstTaskEnds(log);
                spark.sparkContext().addSparkListener(listener);

                spark.conf().set("spark.sql.adaptive.enabled", "false");
                Set<Integer> reading = listener.readingStagesOf(spark, "without AQE", () -> assertKeyZeroHoldsMostRows(spark.sql(SKEWED_GROUPS).collectAsList()));
                assertThat(reading).singleElement().satisfies(stage -> assertThat(listener.linesBeforeFirstTaskEnd(stage)).singleElement().asString()
                        .contains("stage " + stage + " reads skewed shuffle output", "8 partitions", "from map-output sizes"));

                // AQE on (Spark's default); coalescing off, so its shuffle read keeps the 8 partitions and only the
                // adaptive setting itself keeps the driver from predicting.
                spark.conf().unset("spark.sql.adaptive.enabled");
                spark.conf().set("spark.sql.adaptive.coalescePartitions.enabled", "false");
                reading = listener.readingStagesOf(spark, "with AQE", () -> assertKeyZeroHoldsMostRows(spark.sql(SKEWED_GROUPS).collectAsList()));
                assertThat(reading).isNotEmpty().allSatisfy(stage -> assertThat(listener.linesBeforeFirstTaskEnd(stage)).isEmpty());
            }
            finally {
                Spark.stop(spark);
            }
            // the map-output reading never failed
            assertThat(log.warnings()).noneMatch(line -> line.contains("map-output"));
        }
    }

    private static void assertKeyZeroHoldsMostRows(List<Row> rows)
    {
        assertThat(rows).hasSize(16);
        assertThat(rows).filteredOn(row -> row.getLong(0) == 0).singleElement().satisfies(row -> assertThat(row.getInt(1)).isEqualTo(36000 + 250));
    }

    /** For each stage that reads a shuffle: the plugin's lines about it logged before its first task ended. */
    private static final class FirstTaskEnds
            extends SparkListener
    {
        private final LogCapture log;
        private final Set<Integer> readingStages = ConcurrentHashMap.newKeySet();
        private final Map<Integer, List<String>> linesAtFirstTaskEnd = new ConcurrentHashMap<>();
        private final Set<Integer> endedJobs = ConcurrentHashMap.newKeySet();

        FirstTaskEnds(LogCapture log)
        {
            this.log = log;
        }

        @Override
        public void onStageSubmitted(SparkListenerStageSubmitted event)
        {
            if (!event.stageInfo().parentIds().isEmpty()) {
                readingStages.add(event.stageInfo().stageId());
            }
        }

        @Override
        public void onTaskEnd(SparkListenerTaskEnd event)
        {
            // Spark calls the listeners of one queue in the order they were added, the plugin's (added at start) first.
            linesAtFirstTaskEnd.computeIfAbsent(event.stageId(), stage -> log.messages().stream().filter(line -> line.contains("stage " + stage + " ")).toList());
        }

        @Override
        public void onJobEnd(SparkListenerJobEnd event)
        {
            endedJobs.add(event.jobId());
        }

        /** Runs the action as one job group; the stages of its jobs that read a shuffle, once the bus delivered them. */
        Set<Integer> readingStagesOf(SparkSession spark, String group, Runnable action)
                throws InterruptedException
        {
            SparkContext context = spark.sparkContext();
            context.setJobGroup(group, group, false);
            readingStages.clear();
            try {
                action.run();
            }
            finally {
                context.clearJobGroup();
            }
            List<Integer> jobs = Arrays.stream(context.statusTracker().getJobIdsForGroup(group)).boxed().toList();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!endedJobs.containsAll(jobs)) {
                assertThat(System.nanoTime() - deadline).as("listener bus delivered the end of jobs %s", jobs).isNegative();
                Thread.sleep(10);
            }
            assertThat(jobs).isNotEmpty();
            return Set.copyOf(readingStages);
        }

        List<String> linesBeforeFirstTaskEnd(int stage)
        {
            assertThat(linesAtFirstTaskEnd).as("stage %d ran tasks", stage).containsKey(stage);
            return linesAtFirstTaskEnd.get(stage);
        }
    }
}
