package io.chiplet.spark.driver;

import io.chiplet.placement.Advice;
import io.chiplet.spark.topology.ChipletSummary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.chiplet.spark.driver.SparkPartitionAdvice.ADVISORY_PARTITION_SIZE;
import static io.chiplet.spark.driver.SparkPartitionAdvice.DEFAULT_PARALLELISM;
import static io.chiplet.spark.driver.SparkPartitionAdvice.SHUFFLE_PARTITIONS;
import static io.chiplet.spark.driver.SparkPartitionAdvice.SKEW_THRESHOLD;
import static org.assertj.core.api.Assertions.assertThat;

class SparkPartitionAdviceTest
{
    private static final long MIB = 1L << 20;

    @Test
    void dualEpyc7763()
    {
        // 16 CCDs, 8 cores (16 CPUs) and 32 MiB of L3 each.
        Map<String, String> advice = values(new ChipletSummary(16, 32 * MIB, 16));

        assertThat(advice).containsExactlyInAnyOrderEntriesOf(Map.of(
                SHUFFLE_PARTITIONS, "768",
                DEFAULT_PARALLELISM, "512",
                ADVISORY_PARTITION_SIZE, Long.toString(32 * MIB),
                SKEW_THRESHOLD, Long.toString(128 * MIB)));
    }

    @Test
    void unknownL3SizesOnlyTheCounts()
    {
        Map<String, String> advice = values(new ChipletSummary(1, 0, 2));

        assertThat(advice).containsExactlyInAnyOrderEntriesOf(Map.of(SHUFFLE_PARTITIONS, "6", DEFAULT_PARALLELISM, "4"));
    }

    @Test
    void smallL3IsFlooredAndSaysSo()
    {
        List<Advice.Setting> advice = SparkPartitionAdvice.advise(new ChipletSummary(4, 2 * MIB, 4));

        assertThat(advice).filteredOn(setting -> setting.key().equals(ADVISORY_PARTITION_SIZE)).singleElement().satisfies(setting -> {
            assertThat(setting.value()).isEqualTo(Long.toString(4 * MIB));
            assertThat(setting.reason()).contains("floor of 4 MiB", "(2 MiB)");
        });
    }

    @Property
    void countsAreMultiplesOfTheChipletsAndSizesFollowTheL3(
            @ForAll @IntRange(min = 1, max = 64) int chiplets,
            @ForAll @IntRange(min = 1, max = 64) int cores,
            @ForAll @LongRange(min = 0, max = 1L << 32) long l3)
    {
        Map<String, String> advice = values(new ChipletSummary(chiplets, l3, cores));

        assertThat(Integer.parseInt(advice.get(SHUFFLE_PARTITIONS)) % chiplets).isZero();
        assertThat(Integer.parseInt(advice.get(DEFAULT_PARALLELISM)) % chiplets).isZero();
        assertThat(Integer.parseInt(advice.get(SHUFFLE_PARTITIONS))).isGreaterThanOrEqualTo(chiplets * cores);
        if (l3 == 0) {
            assertThat(advice).doesNotContainKeys(ADVISORY_PARTITION_SIZE, SKEW_THRESHOLD);
        }
        else {
            long advisory = Long.parseLong(advice.get(ADVISORY_PARTITION_SIZE));
            assertThat(advisory).isEqualTo(Math.max(l3, 4 * MIB));
            assertThat(Long.parseLong(advice.get(SKEW_THRESHOLD))).isEqualTo(4 * advisory);
        }
    }

    private static Map<String, String> values(ChipletSummary summary)
    {
        return SparkPartitionAdvice.advise(summary).stream()
                .collect(Collectors.toMap(Advice.Setting::key, Advice.Setting::value));
    }
}
