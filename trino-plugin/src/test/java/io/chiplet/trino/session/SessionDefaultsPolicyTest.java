package io.chiplet.trino.session;

import io.chiplet.placement.SkewHint;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

import static io.chiplet.trino.session.SessionDefaultsPolicy.MAX_HASH_PARTITION_COUNT;
import static io.chiplet.trino.session.SessionDefaultsPolicy.MIN_HASH_PARTITION_COUNT;
import static io.chiplet.trino.session.SessionDefaultsPolicy.PROPERTIES;
import static io.chiplet.trino.session.SessionDefaultsPolicy.TASK_CONCURRENCY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionDefaultsPolicyTest
{
    /** 2 packages x 4 chiplets x 6 cores x 2 threads: 48 cores in 8 chiplets. */
    private static final Topology HOST = SyntheticTopologies.uniform("synthetic:48", 2, 4, 6, 2, 32L << 20, 2);

    @Test
    void taskConcurrencyIsAPowerOfTwoWithinAWorkersCores()
    {
        assertThat(SessionDefaultsPolicy.fit(HOST, 1, PROPERTIES).taskConcurrency()).hasValue(32);
        assertThat(SessionDefaultsPolicy.fit(HOST, 8, PROPERTIES).taskConcurrency()).hasValue(4);
        assertThat(SessionDefaultsPolicy.fit(SyntheticTopologies.cpus512(), 1, PROPERTIES).taskConcurrency()).hasValue(64);
        for (int workersPerHost = 1; workersPerHost <= 64; workersPerHost++) {
            int concurrency = SessionDefaultsPolicy.fit(HOST, workersPerHost, PROPERTIES).taskConcurrency().getAsInt();
            assertThat(Integer.bitCount(concurrency)).as("task_concurrency %d for %d workers per host", concurrency, workersPerHost).isEqualTo(1);
            assertThat(concurrency).isLessThanOrEqualTo(Math.max(1, 48 / workersPerHost));
        }
    }

    @Test
    void hashPartitionsFitTheWorkers()
    {
        SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(HOST, 1, PROPERTIES);

        assertThat(policy.systemProperties(Map.of(), OptionalInt.of(3), SkewHint.NONE)).isEqualTo(Map.of(
                TASK_CONCURRENCY, "32", MIN_HASH_PARTITION_COUNT, "3", MAX_HASH_PARTITION_COUNT, "102"));
        // The minimum never exceeds Trino's own 4, so any maximum a user may set without the plugin still works.
        assertThat(policy.systemProperties(Map.of(), OptionalInt.of(7), SkewHint.NONE)).isEqualTo(Map.of(
                TASK_CONCURRENCY, "32", MIN_HASH_PARTITION_COUNT, "4", MAX_HASH_PARTITION_COUNT, "105"));
        assertThat(policy.systemProperties(Map.of(), OptionalInt.of(150), SkewHint.NONE)).isEqualTo(Map.of(
                TASK_CONCURRENCY, "32", MIN_HASH_PARTITION_COUNT, "4", MAX_HASH_PARTITION_COUNT, "150"));
    }

    @Test
    void withoutAWorkerCountOnlyTaskConcurrencyIsSet()
    {
        assertThat(SessionDefaultsPolicy.fit(HOST, 1, PROPERTIES).systemProperties(Map.of(), OptionalInt.empty(), SkewHint.NONE))
                .isEqualTo(Map.of(TASK_CONCURRENCY, "32"));
    }

    @Test
    void skewHintsAdjustTheDefaults()
    {
        SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(HOST, 1, PROPERTIES);

        assertThat(policy.systemProperties(Map.of(), OptionalInt.of(3), SkewHint.SPREAD)).isEqualTo(Map.of(
                TASK_CONCURRENCY, "64", MIN_HASH_PARTITION_COUNT, "3", MAX_HASH_PARTITION_COUNT, "204"));
        assertThat(policy.systemProperties(Map.of(), OptionalInt.of(3), SkewHint.CONSOLIDATE)).isEqualTo(Map.of(
                TASK_CONCURRENCY, "16", MIN_HASH_PARTITION_COUNT, "1", MAX_HASH_PARTITION_COUNT, "102"));
        assertThat(SessionDefaultsPolicy.fit(HOST, 64, PROPERTIES).systemProperties(Map.of(), OptionalInt.empty(), SkewHint.CONSOLIDATE))
                .containsEntry(TASK_CONCURRENCY, "1");
    }

    @Test
    void theOperatorsRulesWinPropertyByProperty()
    {
        SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(HOST, 1, PROPERTIES);
        Map<String, String> rules = Map.of(TASK_CONCURRENCY, "4", "query_max_memory", "1GB");

        assertThat(policy.systemProperties(rules, OptionalInt.of(3), SkewHint.SPREAD)).isEqualTo(Map.of(
                TASK_CONCURRENCY, "4", "query_max_memory", "1GB", MIN_HASH_PARTITION_COUNT, "3", MAX_HASH_PARTITION_COUNT, "204"));
    }

    @Test
    void oursNeverContradictTheRulesBounds()
    {
        SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(HOST, 1, PROPERTIES);

        assertThat(policy.systemProperties(Map.of(MAX_HASH_PARTITION_COUNT, "2"), OptionalInt.of(3), SkewHint.NONE))
                .containsEntry(MIN_HASH_PARTITION_COUNT, "2")
                .containsEntry(MAX_HASH_PARTITION_COUNT, "2");
        assertThat(policy.systemProperties(Map.of(MIN_HASH_PARTITION_COUNT, "500"), OptionalInt.of(3), SkewHint.NONE))
                .containsEntry(MIN_HASH_PARTITION_COUNT, "500")
                .containsEntry(MAX_HASH_PARTITION_COUNT, "500");
        // A value Trino will reject is the rule's to fix; ours stay as fitted.
        assertThat(policy.systemProperties(Map.of(MAX_HASH_PARTITION_COUNT, "many"), OptionalInt.of(3), SkewHint.NONE))
                .containsEntry(MIN_HASH_PARTITION_COUNT, "3")
                .containsEntry(MAX_HASH_PARTITION_COUNT, "many");
    }

    @Test
    void onlyTheEnabledPropertiesAreDefaulted()
    {
        SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(HOST, 1, Set.of(TASK_CONCURRENCY));

        assertThat(policy.systemProperties(Map.of(), OptionalInt.of(3), SkewHint.NONE)).isEqualTo(Map.of(TASK_CONCURRENCY, "32"));
        assertThat(SessionDefaultsPolicy.fit(HOST, 1, Set.of()).systemProperties(Map.of("a", "b"), OptionalInt.of(3), SkewHint.SPREAD))
                .isEqualTo(Map.of("a", "b"));
        assertThatThrownBy(() -> SessionDefaultsPolicy.fit(HOST, 1, Set.of("hash_partition_count")))
                .hasMessageContaining("hash_partition_count");
    }
}
