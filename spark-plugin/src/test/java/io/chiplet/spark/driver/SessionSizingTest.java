package io.chiplet.spark.driver;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SessionSizingTest
{
    private static final String PARTITIONS = "spark.sql.shuffle.partitions";
    private static final String ADVISORY = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
    private static final String PARALLELISM = "spark.default.parallelism";

    private static List<AdvisedSetting> figure(int partitions, String advisory)
    {
        return List.of(new AdvisedSetting(PARTITIONS, Integer.toString(partitions), "test"),
                new AdvisedSetting(PARALLELISM, Integer.toString(partitions), "test"),
                new AdvisedSetting(ADVISORY, advisory, "test"));
    }

    @Test
    void aSessionMadeBeforeAnyFigureTakesEachLaterOne()
    {
        SessionSizing sizing = new SessionSizing(Set.of(), session -> (FakeSession) session);
        FakeSession early = new FakeSession();
        assertThat(sizing.register(early).sessionsChanged()).isZero();
        assertThat(early.settings).isEmpty();

        // The first executor's figure (provisional), then the whole cluster's: the session follows both.
        assertThat(sizing.update(figure(3, "4m")).sessionsChanged()).isEqualTo(1);
        assertThat(early.settings).containsEntry(PARTITIONS, "3").containsEntry(ADVISORY, "4m");
        assertThat(sizing.update(figure(6, "4m")).sessionsChanged()).isEqualTo(1);
        assertThat(early.settings).containsEntry(PARTITIONS, "6");
        // spark.default.parallelism is the SparkContext's, never a session's.
        assertThat(early.settings).doesNotContainKey(PARALLELISM);

        // A session made later gets the current figure when it registers; registering again changes nothing.
        FakeSession late = new FakeSession();
        assertThat(sizing.register(late).sessionsChanged()).isEqualTo(1);
        assertThat(late.settings).containsEntry(PARTITIONS, "6");
        assertThat(sizing.register(late).sessionsChanged()).isZero();
        assertThat(sizing.sessions()).isEqualTo(2);
    }

    @Test
    void whatAUserSetInASessionIsTheirsForGood()
    {
        SessionSizing sizing = new SessionSizing(Set.of(), session -> (FakeSession) session);
        FakeSession builderConfig = new FakeSession().with(PARTITIONS, "50");
        FakeSession setLater = new FakeSession();
        sizing.register(builderConfig);
        sizing.register(setLater);

        SessionSizing.Applied first = sizing.update(figure(6, "4m"));
        assertThat(builderConfig.settings).containsEntry(PARTITIONS, "50").containsEntry(ADVISORY, "4m");
        assertThat(first.keptByUser()).containsExactly(PARTITIONS + " = 50");

        // SET spark.sql.shuffle.partitions = 7 in the second session: later figures leave it there.
        setLater.set(PARTITIONS, "7");
        SessionSizing.Applied second = sizing.update(figure(12, "4m"));
        assertThat(setLater.settings).containsEntry(PARTITIONS, "7");
        assertThat(builderConfig.settings).containsEntry(PARTITIONS, "50");
        assertThat(second.keptByUser()).containsExactly(PARTITIONS + " = 7");
        // Each key is said once per session.
        assertThat(sizing.update(figure(18, "8m")).keptByUser()).isEmpty();
        assertThat(setLater.settings).containsEntry(ADVISORY, "8m");
    }

    @Test
    void keysTheUserSetInTheSparkConfAreNeverTouchedAndSparkConfCopiesAreOurs()
    {
        SessionSizing sizing = new SessionSizing(Set.of(ADVISORY), session -> (FakeSession) session);
        sizing.gaveThroughSparkConf(PARTITIONS, "3");
        // Made from the SparkConf after the plugin put its provisional 3 and the user's advisory size there.
        FakeSession copied = new FakeSession().with(PARTITIONS, "3").with(ADVISORY, "1m");
        sizing.register(copied);

        SessionSizing.Applied applied = sizing.update(figure(6, "4m"));
        assertThat(copied.settings).containsEntry(PARTITIONS, "6").containsEntry(ADVISORY, "1m");
        assertThat(applied.keptByUser()).isEmpty();
    }
}
